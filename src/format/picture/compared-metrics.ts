/**
 * With --compare, a picture draws each metric once, the current period and the earlier one on the same
 * chart; `_change` stays in the table. Without it, every metric shown is drawn as it is.
 */

import type { ReportMeta } from "../../contract";
import { CHANGE_SUFFIX, PREVIOUS_SUFFIX } from "../../core/derived-metrics";

export interface ChartedMetrics {
  /** The metrics drawn, one chart each. */
  charts: string[];
  /** What the collector must compute: each drawn metric and, compared, its `_prev`. */
  collected: string[];
  /** The earlier period in words, for a legend; undefined without --compare. */
  previous: string | undefined;
}

const PERIOD_WORDS: Readonly<Record<string, string>> = { previous: "period before", year: "a year earlier" };

function baseOf(metric: string): string {
  for (const suffix of [PREVIOUS_SUFFIX, CHANGE_SUFFIX]) {
    if (metric.endsWith(suffix)) return metric.slice(0, -suffix.length);
  }
  return metric;
}

export function chartedMetrics(meta: ReportMeta, metrics: readonly string[]): ChartedMetrics {
  const mode = (meta as Record<string, unknown>).compare;
  if (typeof mode !== "string") return { charts: [...metrics], collected: [...metrics], previous: undefined };
  const charts = [...new Set(metrics.map(baseOf))];
  return {
    charts,
    collected: charts.flatMap((metric) => [metric, `${metric}${PREVIOUS_SUFFIX}`]),
    previous: Object.hasOwn(PERIOD_WORDS, mode) ? PERIOD_WORDS[mode] : mode,
  };
}
