/**
 * Counters summed over whatever a point of a chart covers (one entity on one date, an entity over the whole
 * range, "other" entities together), and a metric's value read from them: counters are sums, ratios are
 * computed from the summed counters with core/derived-metrics (never an average of ratios), `<m>_prev` the
 * same over the previous period's counters, `<m>_change` the relative change between the two.
 */
import { roundToMicros } from "../../contract";
import { countersOf, isDerivedMetric, metricFrom, PREVIOUS_SUFFIX } from "../../core/derived-metrics";

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

/** The metric's value over the tally; undefined when it has none (a zero denominator, nothing to read). */
export function metricValue(metric: string, tally: Tally): number | undefined {
  const base = metric.endsWith(PREVIOUS_SUFFIX) ? metric.slice(0, -PREVIOUS_SUFFIX.length) : metric;
  if (
    isDerivedMetric(base) &&
    countersOf(base).some((c) => tally.sums[`${c}${metric.slice(base.length)}`] === undefined)
  ) {
    // Rows that carry the ratio but not its counters: one row's own value is right, a sum of ratios is not.
    return tally.rows === 1 ? tally.sums[metric] : undefined;
  }
  // A sum of spending drifts in binary past the 6 decimals it has; ratios are computed from the sums.
  return metricFrom(metric, (name) => {
    const sum = tally.sums[name];
    return sum === undefined ? undefined : roundToMicros(sum);
  });
}
