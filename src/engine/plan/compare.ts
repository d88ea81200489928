/**
 * --compare: the period the report is compared with, asked for with the same rules as the report itself
 * (the same metrics, dimensions, filters and granularity, split in 90-day windows when longer).
 *   previous: the same length just before. Whole months by month move back by as many months; a range
 *             of whole days (in --tz's zone, else UTC) by as many days, so a DST change does not shift it
 *             by an hour; any other range by its length.
 *   year:     the same local dates and times a year earlier (29 February becomes 28 February).
 */
import { MAX_RANGE_SECONDS, type ReportRequest, splitRange } from "../../contract";
import { type BucketUnit, bucketUnitOf, dayAYearBefore, formatDateTime } from "../../core/calendar";
import { UsageError } from "../../core/errors";
import type { TimeZone } from "../../core/time-zone";
import type { CompareMode } from "./compare-modes";
import type { RequestPlan } from "./request";
import { requireWholeHourOffsets } from "./zone-range";

export interface ComparedPeriod {
  request: ReportRequest;
  windows: Array<{ from: string; to: string }> | undefined;
  /** Whole seconds, both ends inclusive. */
  range: { from: number; to: number };
}

function isDayStart(zone: TimeZone, sec: number): boolean {
  return zone.dayStart(zone.localDay(sec)) === sec;
}

/** The same local day and time of day a year earlier. */
function yearEarlier(zone: TimeZone, sec: number): number {
  const day = zone.localDay(sec);
  return zone.dayStart(dayAYearBefore(day)) + (sec - zone.dayStart(day));
}

/** The unit of the report's date buckets, or undefined without `date`. */
function bucketUnit(plan: RequestPlan): BucketUnit | undefined {
  if (!plan.request.dimensions.includes("date")) return undefined;
  return plan.bucketUnit ?? bucketUnitOf(plan.request.granularity ?? "day");
}

function previousRange(plan: RequestPlan, mode: CompareMode): { from: number; to: number } {
  const { zone, range } = plan;
  const end = range.to + 1;
  if (mode === "year") return { from: yearEarlier(zone, range.from), to: yearEarlier(zone, end) - 1 };
  // Whole months by month: the months just before (October against September, not 31 days back).
  const unit = bucketUnit(plan);
  if (unit === "month" && zone.bucketStart(unit, range.from) === range.from && zone.bucketStart(unit, end) === end) {
    const months = zone.bucketsBetween(unit, range.from, end);
    return { from: zone.bucketAfter(unit, range.from, -months), to: range.from - 1 };
  }
  if (isDayStart(zone, range.from) && isDayStart(zone, end)) {
    const days = zone.localDay(end) - zone.localDay(range.from);
    return { from: zone.dayStart(zone.localDay(range.from) - days), to: range.from - 1 };
  }
  return { from: range.from - (end - range.from), to: range.from - 1 };
}

export function planComparedPeriod(plan: RequestPlan, mode: CompareMode, split: boolean): ComparedPeriod {
  const range = previousRange(plan, mode);
  if (range.from < 0) {
    throw new UsageError(`--compare ${mode}: the period before the range would start before 1970-01-01`);
  }
  if (plan.zone.name !== "UTC") requireWholeHourOffsets(plan.zone, range.from, range.to);
  const from = formatDateTime(range.from);
  const to = formatDateTime(range.to);
  let windows: ComparedPeriod["windows"];
  if (range.to - range.from > MAX_RANGE_SECONDS) {
    if (!split) {
      throw new UsageError(
        `--compare ${mode}: the period compared with (${from} to ${to}) is over 90 days, and --no-split was given`,
        { hint: "without --no-split, adreport fetches longer ranges in 90-day windows" },
      );
    }
    windows = splitRange(from, to);
  }
  return { request: { ...plan.request, from, to }, windows, range };
}
