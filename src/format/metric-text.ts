/**
 * How the table shows a metric's value: counts as whole numbers, money (spending, cpc, cpm, cpa) with 2
 * decimals, ctr and cvr as percentages with 2 decimals, a relative change (`<metric>_change`) as a signed
 * percentage. A value that has none (a ratio over 0) is `-`; a value the row does not carry is empty.
 */
import { FORMULAS, isDerivedMetric } from "../core/derived-metrics";

const MONEY = new Set(["spending", "cpc", "cpm", "cpa"]);
const CHANGE = /_change$/;
const PREVIOUS = /_prev$/;

function twoDecimals(value: number): string {
  return value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

export function metricText(metric: string, value: number | null | undefined): string {
  if (value === undefined) return "";
  if (value === null) return "-";
  if (CHANGE.test(metric)) return `${value > 0 ? "+" : ""}${twoDecimals(value * 100)}%`;
  const base = metric.replace(PREVIOUS, "");
  if (isDerivedMetric(base) && FORMULAS[base].percent) return `${twoDecimals(value * 100)}%`;
  if (MONEY.has(base)) return twoDecimals(value);
  return value.toLocaleString("en-US");
}
