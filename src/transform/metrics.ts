/**
 * Derived metrics and the choice of metrics: every row's metrics become the listed ones, in the listed order,
 * ratios computed from the row's counters (core/derived-metrics.ts). With a comparison, each listed metric
 * is followed by `<metric>_prev` and `<metric>_change`: the compare stage has put `<counter>_prev` in the
 * row, ratios of the previous period come from those, and every change from a value and its `_prev`.
 */
import type { ReportRow } from "../contract";
import type { ReportStream } from "../contract/report-stream";
import { CHANGE_SUFFIX, isDerivedMetric, metricFrom, PREVIOUS_SUFFIX, relativeChange } from "../core/derived-metrics";
import { rewritePages } from "./pages";

export interface MetricChoice {
  /** What --metrics listed (or the default counters), in order. */
  listed: readonly string[];
  /** A previous period is compared: `<counter>_prev` is in every row. */
  compare: boolean;
  /**
   * Rows keep the counters they came with beside the output metrics (not named in meta.metrics): formats
   * that sum rows themselves (html, chart) recompute a ratio over several rows from them.
   */
  keepCounters?: boolean;
}

const PREVIOUS = PREVIOUS_SUFFIX;
const CHANGE = CHANGE_SUFFIX;

/** The metric columns of the output, in order. */
export function outputMetrics(choice: MetricChoice): string[] {
  return choice.compare ? choice.listed.flatMap((m) => [m, `${m}${PREVIOUS}`, `${m}${CHANGE}`]) : [...choice.listed];
}

type Metrics = ReportRow["metrics"];

/** A finite number, or undefined: numbers a hostile service sends near the limit may overflow a ratio. */
function finite(value: number | null | undefined): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function numberIn(metrics: Metrics, name: string): number | undefined {
  return finite(metrics[name]);
}

function computed(metrics: Metrics, metric: string, suffix: string): number | undefined {
  return finite(metricFrom(`${metric}${suffix}`, (name) => numberIn(metrics, name)));
}

/**
 * The output metrics of one row (or a totals row) from its counters; `null` where a ratio or change has no
 * value. A listed counter the row does not carry stays absent, as the service sent it.
 */
export function shapeMetrics(metrics: Metrics, choice: MetricChoice): Metrics {
  const shaped: Metrics = {};
  for (const metric of choice.listed) {
    const current = computed(metrics, metric, "");
    if (current !== undefined) shaped[metric] = current;
    else if (isDerivedMetric(metric) || Object.hasOwn(metrics, metric)) shaped[metric] = null;
    if (!choice.compare) continue;
    const previous = computed(metrics, metric, PREVIOUS);
    shaped[`${metric}${PREVIOUS}`] = previous ?? null;
    shaped[`${metric}${CHANGE}`] = finite(relativeChange(current, previous)) ?? null;
  }
  if (choice.keepCounters) {
    for (const [name, value] of Object.entries(metrics)) if (!Object.hasOwn(shaped, name)) shaped[name] = value;
  }
  return shaped;
}

/** True when the rows are output with the metrics they came with: nothing to do. */
export function metricsAsSent(metaMetrics: readonly string[], choice: MetricChoice): boolean {
  if (choice.compare || choice.listed.some(isDerivedMetric)) return false;
  // Counters only: what the service says it sent stands when it is the listed ones in their order, some
  // perhaps left out (a service that leaves one out is not second-guessed with an empty column); one
  // not listed, or another order, is shaped into the listed order.
  const wanted = outputMetrics(choice);
  let at = 0;
  for (const metric of metaMetrics) {
    at = wanted.indexOf(metric, at);
    if (at === -1) return false;
    at += 1;
  }
  return true;
}

export function shapeReportMetrics(report: ReportStream, choice: MetricChoice): ReportStream {
  return {
    ...report,
    meta: { ...report.meta, metrics: outputMetrics(choice) },
    pages: rewritePages(report.pages, (rows) =>
      rows.map((row) => ({ ...row, metrics: shapeMetrics(row.metrics, choice) })),
    ),
  };
}
