/** Names and limits of the report endpoint (docs/service.md §2). */
import { BUCKET_UNITS, BUCKET_WORDS, type BucketUnit, SECONDS_PER_DAY } from "../core/calendar";

export const METRICS = ["views", "spending", "clicks", "conversions"] as const;
export type Metric = (typeof METRICS)[number];

export const ENTITY_DIMENSIONS = ["campaign", "ad", "keyword"] as const;
export type EntityDimension = (typeof ENTITY_DIMENSIONS)[number];

export const DIMENSIONS = ["date", ...ENTITY_DIMENSIONS] as const;
export type Dimension = (typeof DIMENSIONS)[number];

export const GRANULARITIES = BUCKET_UNITS;
export type Granularity = BucketUnit;
export const DEFAULT_GRANULARITY: Granularity = "day";

/** The word `meta.granularity` carries for each granularity; `total` when `date` is not a dimension. */
export const GRANULARITY_WORDS = BUCKET_WORDS;
export const TOTAL_GRANULARITY_WORD = "total";

/** Metrics the `keyword` dimension supports (docs/service.md §2). */
export const KEYWORD_METRICS: readonly Metric[] = ["views", "spending", "clicks"];

/** Keys of a row's `dimensions` object for each requested dimension (docs/service.md §4), in column order. */
export const DIMENSION_KEYS: Record<Dimension, readonly string[]> = {
  campaign: ["campaign_id", "name"],
  ad: ["ad_id", "name", "campaign_id"],
  keyword: ["keyword_id", "name"],
  date: ["date"],
};

/**
 * A metric's value with the binary drift of arithmetic removed past the 6 decimals `spending` has
 * (docs/service.md §4). Whole numbers are returned as they are: scaling one past 2^53 would change it.
 */
export function roundToMicros(value: number): number {
  return Number.isInteger(value) ? value : Math.round(value * 1e6) / 1e6;
}

const TWO_TO_32 = 4_294_967_296;

/**
 * Spending in integer micros (millionths), as a job's ledger sums it and a Parquet DECIMAL keeps it: the
 * amount the CSV export writes. Below 2^32 the product is within half a micro of it; above, the product's
 * rounding can be a micro off (4427846499.313605 * 1e6 is ...605.5), so the double's shortest text is read.
 */
export function spendingMicros(value: number): number {
  if (Math.abs(value) < TWO_TO_32) return Math.round(value * 1e6);
  const text = String(Math.abs(value));
  if (text.includes("e")) return Math.round(value * 1e6);
  const [whole = "0", fraction = ""] = text.split(".");
  const micros =
    Number(whole) * 1e6 + Number(fraction.slice(0, 6).padEnd(6, "0")) + ((fraction[6] ?? "0") >= "5" ? 1 : 0);
  return value < 0 ? -micros : micros;
}

export const MAX_RANGE_SECONDS = 90 * SECONDS_PER_DAY;
export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

export const QUERY_PARAMS = [
  "from",
  "to",
  "metrics",
  "dimensions",
  "granularity",
  "campaign_id",
  "ad_id",
  "page",
  "limit",
] as const;

/** Metrics a report with these dimensions can carry, in canonical order. */
export function metricsAllowedFor(dimensions: readonly Dimension[]): Metric[] {
  return dimensions.includes("keyword") ? [...KEYWORD_METRICS] : [...METRICS];
}

export function isDimension(word: string): word is Dimension {
  return (DIMENSIONS as readonly string[]).includes(word);
}

export function isEntityDimension(word: string): word is EntityDimension {
  return (ENTITY_DIMENSIONS as readonly string[]).includes(word);
}
