/**
 * How a metric's values read, for every layer that shows or stores them: counts, money (spending and the
 * ratios over it: cpc, cpm, cpa), a share (ctr, cvr: percent) or a relative change (`<metric>_change`).
 * A compared period's column (`<metric>_prev`) reads as its metric.
 */
import { CHANGE_SUFFIX, FORMULAS, isDerivedMetric, PREVIOUS_SUFFIX } from "./derived-metrics";

export type MetricKind = "count" | "money" | "percent" | "change";

/** The counter the service sends in currency units, with 6 decimals (docs/service.md §4). */
const MONEY_COUNTER = "spending";

export function metricKind(metric: string): MetricKind {
  if (metric.endsWith(CHANGE_SUFFIX)) return "change";
  const base = metric.endsWith(PREVIOUS_SUFFIX) ? metric.slice(0, -PREVIOUS_SUFFIX.length) : metric;
  if (base === MONEY_COUNTER) return "money";
  if (isDerivedMetric(base)) return FORMULAS[base].percent ? "percent" : "money";
  return "count";
}
