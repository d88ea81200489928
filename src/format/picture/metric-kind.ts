/** How a metric's values read: counts, money, a share (percent) or a relative change. */
import { FORMULAS, isDerivedMetric } from "../../core/derived-metrics";

export type MetricKind = "count" | "money" | "percent" | "change";

export function metricKind(metric: string): MetricKind {
  if (metric.endsWith("_change")) return "change";
  const base = metric.endsWith("_prev") ? metric.slice(0, -"_prev".length) : metric;
  if (base === "spending") return "money";
  if (isDerivedMetric(base)) return FORMULAS[base].percent ? "percent" : "money";
  return "count";
}
