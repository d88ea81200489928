/**
 * --metrics: counters the service sends and ratios adreport derives from them. What is fetched is every
 * listed counter, in order, then the counters a listed ratio needs; what is output is what was listed.
 */
// The fields alone, not the contract's schemas: engine/plan/request-words.ts checks --metrics before zod loads.
import { type Dimension, METRICS, type Metric, metricsAllowedFor } from "../../contract/fields";
import { countersOf, DERIVED_METRICS, isDerivedMetric } from "../../core/derived-metrics";
import { UsageError } from "../../core/errors";
import { quote } from "../../core/quote";

export interface MetricList {
  /** The output metrics, in the order listed. */
  listed: string[];
  /** The counters to ask the service for. */
  fetched: Metric[];
}

const ALL_NAMES: readonly string[] = [...METRICS, ...DERIVED_METRICS];
/** Counters keyword reports lack (docs/service.md §2): ratios over them cannot be made. */
const NOT_FOR_KEYWORDS = "conversions";

function isCounter(word: string): word is Metric {
  return (METRICS as readonly string[]).includes(word);
}

/** The names --metrics lists, each known and listed once; a UsageError otherwise. */
export function readMetricNames(text: string): string[] {
  const listed: string[] = [];
  for (const item of text.split(",").map((word) => word.trim())) {
    if (!ALL_NAMES.includes(item)) {
      const what = item === "" ? `an empty name in ${quote(text)}` : `unknown name ${quote(item)}`;
      throw new UsageError(`--metrics: ${what}; use ${ALL_NAMES.join(", ")}`);
    }
    if (listed.includes(item)) throw new UsageError(`--metrics: ${item} listed twice`);
    listed.push(item);
  }
  return listed;
}

export function readMetricList(text: string | undefined, dimensions: readonly Dimension[]): MetricList {
  if (text === undefined) {
    const all = metricsAllowedFor(dimensions);
    return { listed: all, fetched: all };
  }
  const listed = readMetricNames(text);
  if (dimensions.includes("keyword")) {
    const needsConversions = listed.find((m) => isDerivedMetric(m) && countersOf(m).includes(NOT_FOR_KEYWORDS));
    if (needsConversions !== undefined) {
      throw new UsageError(
        `--metrics: ${needsConversions} needs conversions, and keyword reports have no conversions`,
        {
          hint: "keyword reports carry views, spending and clicks, and the ratios ctr, cpc and cpm",
        },
      );
    }
  }
  const fetched: Metric[] = listed.filter(isCounter);
  for (const metric of listed) {
    if (!isDerivedMetric(metric)) continue;
    for (const counter of countersOf(metric))
      if (isCounter(counter) && !fetched.includes(counter)) fetched.push(counter);
  }
  return { listed, fetched };
}
