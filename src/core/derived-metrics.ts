/**
 * Ratios an analyst reads, each computed from summed counters (never an average of ratios): in a row, in a
 * totals row, in a merged window, a re-bucketed day or a compared period. A zero denominator has no value.
 */
export const DERIVED_METRICS = ["ctr", "cpc", "cpm", "cvr", "cpa"] as const;
export type DerivedMetric = (typeof DERIVED_METRICS)[number];

interface Formula {
  readonly numerator: string;
  readonly denominator: string;
  readonly scale: number;
  /** Shown as a percentage in the table (ctr, cvr); the others are money per unit. */
  readonly percent: boolean;
  readonly text: string;
}

export const FORMULAS: Readonly<Record<DerivedMetric, Formula>> = {
  ctr: { numerator: "clicks", denominator: "views", scale: 1, percent: true, text: "clicks / views" },
  cpc: { numerator: "spending", denominator: "clicks", scale: 1, percent: false, text: "spending / clicks" },
  cpm: { numerator: "spending", denominator: "views", scale: 1000, percent: false, text: "spending / views x 1000" },
  cvr: { numerator: "conversions", denominator: "clicks", scale: 1, percent: true, text: "conversions / clicks" },
  cpa: { numerator: "spending", denominator: "conversions", scale: 1, percent: false, text: "spending / conversions" },
};

export function isDerivedMetric(word: string): word is DerivedMetric {
  return (DERIVED_METRICS as readonly string[]).includes(word);
}

/** The counters a derived metric is computed from. */
export function countersOf(metric: DerivedMetric): readonly [string, string] {
  const { numerator, denominator } = FORMULAS[metric];
  return [numerator, denominator];
}

/**
 * The metric from counters already summed over whatever the row covers; undefined (no value) when a
 * counter is missing or the denominator is 0.
 */
export function derive(
  metric: DerivedMetric,
  counters: Readonly<Record<string, number | undefined>>,
): number | undefined {
  const { numerator, denominator, scale } = FORMULAS[metric];
  const top = counters[numerator];
  const bottom = counters[denominator];
  if (top === undefined || bottom === undefined || bottom === 0) return undefined;
  return (top / bottom) * scale;
}

/** Relative change from `previous` to `current`; undefined when there is no previous value or it is 0. */
export function relativeChange(current: number | undefined, previous: number | undefined): number | undefined {
  if (current === undefined || previous === undefined || previous === 0) return undefined;
  return (current - previous) / previous;
}

/** A compared period's value of a metric (`clicks_prev`), and the relative change to it (`clicks_change`). */
export const PREVIOUS_SUFFIX = "_prev";
export const CHANGE_SUFFIX = "_change";

/**
 * Any metric column from counters summed over what a row covers: a counter as `counter` gives it, a ratio
 * from its counters (of the previous period for `ratio_prev`), a `_change` from the value and its `_prev`.
 * Undefined where there is no value.
 */
export function metricFrom(metric: string, counter: (name: string) => number | undefined): number | undefined {
  if (metric.endsWith(CHANGE_SUFFIX)) {
    const base = metric.slice(0, -CHANGE_SUFFIX.length);
    return relativeChange(metricFrom(base, counter), metricFrom(`${base}${PREVIOUS_SUFFIX}`, counter));
  }
  const suffix = metric.endsWith(PREVIOUS_SUFFIX) ? PREVIOUS_SUFFIX : "";
  const base = metric.slice(0, metric.length - suffix.length);
  if (!isDerivedMetric(base)) return counter(metric);
  const [numerator, denominator] = countersOf(base);
  return derive(base, {
    [numerator]: counter(`${numerator}${suffix}`),
    [denominator]: counter(`${denominator}${suffix}`),
  });
}
