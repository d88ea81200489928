/**
 * Counters summed over whatever a point of a chart covers (one entity on one date, an entity over the whole
 * range, "other" entities together), and a metric's value read from them: counters are sums, ratios are
 * computed from the summed counters with core/derived-metrics (never an average of ratios), `<m>_prev` the
 * same over the previous period's counters, `<m>_change` the relative change between the two.
 */
import { roundToMicros } from "../../contract";
import { countersOf, derive, isDerivedMetric, relativeChange } from "../../core/derived-metrics";

export interface Tally {
  /** How many rows were added. */
  rows: number;
  /** Every numeric metric of those rows, summed. */
  sums: Record<string, number>;
}

export function emptyTally(): Tally {
  return { rows: 0, sums: {} };
}

/** Adds one row's metrics; a metric with no value (null, missing) adds nothing. */
export function addMetrics(tally: Tally, metrics: Readonly<Record<string, unknown>>): void {
  tally.rows += 1;
  for (const key in metrics) {
    const value = metrics[key];
    if (typeof value === "number" && Number.isFinite(value)) tally.sums[key] = (tally.sums[key] ?? 0) + value;
  }
}

export function addTally(into: Tally, from: Tally): void {
  into.rows += from.rows;
  for (const key in from.sums) into.sums[key] = (into.sums[key] ?? 0) + (from.sums[key] as number);
}

const PREV = "_prev";
const CHANGE = "_change";

/** The metric's value over the tally; undefined when it has none (a zero denominator, nothing to read). */
export function metricValue(metric: string, tally: Tally): number | undefined {
  if (metric.endsWith(CHANGE)) {
    const base = metric.slice(0, -CHANGE.length);
    return relativeChange(metricValue(base, tally), metricValue(`${base}${PREV}`, tally));
  }
  const suffix = metric.endsWith(PREV) ? PREV : "";
  const base = metric.slice(0, metric.length - suffix.length);
  if (isDerivedMetric(base)) {
    const [numerator, denominator] = countersOf(base);
    const top = tally.sums[`${numerator}${suffix}`];
    const bottom = tally.sums[`${denominator}${suffix}`];
    if (top !== undefined && bottom !== undefined) return derive(base, { [numerator]: top, [denominator]: bottom });
    // Rows that carry the ratio but not its counters: one row's own value is right, a sum of ratios is not.
    return tally.rows === 1 ? tally.sums[metric] : undefined;
  }
  const sum = tally.sums[metric];
  // A sum of spending drifts in binary past the 6 decimals it has; ratios are left as computed.
  return sum === undefined ? undefined : roundToMicros(sum);
}
