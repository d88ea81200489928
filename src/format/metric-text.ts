/**
 * How the table shows a metric's value: counts as whole numbers, money (spending, cpc, cpm, cpa) with 2
 * decimals, ctr and cvr as percentages with 2 decimals, a relative change (`<metric>_change`) as a signed
 * percentage. A value that has none (a ratio over 0) is `-`; a value the row does not carry is empty.
 */
import { metricKind } from "../core/metric-kind";

function twoDecimals(value: number): string {
  return value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

export function metricText(metric: string, value: number | null | undefined): string {
  if (value === undefined) return "";
  if (value === null) return "-";
  switch (metricKind(metric)) {
    case "change":
      return `${value > 0 ? "+" : ""}${twoDecimals(value * 100)}%`;
    case "percent":
      return `${twoDecimals(value * 100)}%`;
    case "money":
      return twoDecimals(value);
    case "count":
      return value.toLocaleString("en-US");
  }
}
