/**
 * Where date buckets start, as the service cuts them (docs/service.md §4): UTC hours, days from 00:00, ISO weeks
 * from Monday 00:00, months from the 1st. A clock for another zone (--tz) implements the same interface.
 */
import {
  type BucketUnit,
  dayOfSecond,
  monthStart,
  SECONDS_PER_DAY,
  SECONDS_PER_HOUR,
  weekStart,
} from "../core/calendar";
import type { TimeZone } from "../core/time-zone";

export interface BucketClock {
  /** The start of the bucket the second falls in. */
  floor(sec: number): number;
  /** The start of the bucket after the one starting at `start`. */
  next(start: number): number;
}

function monthOf(sec: number, monthsLater: number): number {
  return monthStart(dayOfSecond(sec), monthsLater) * SECONDS_PER_DAY;
}

export function utcBuckets(unit: BucketUnit): BucketClock {
  switch (unit) {
    case "hour":
      return {
        floor: (sec) => Math.floor(sec / SECONDS_PER_HOUR) * SECONDS_PER_HOUR,
        next: (start) => start + SECONDS_PER_HOUR,
      };
    case "day":
      return { floor: (sec) => dayOfSecond(sec) * SECONDS_PER_DAY, next: (start) => start + SECONDS_PER_DAY };
    case "week":
      return {
        floor: (sec) => weekStart(dayOfSecond(sec)) * SECONDS_PER_DAY,
        next: (start) => start + 7 * SECONDS_PER_DAY,
      };
    case "month":
      return { floor: (sec) => monthOf(sec, 0), next: (start) => monthOf(start, 1) };
  }
}

/** The buckets of a zone (--tz): its hours, days, ISO weeks and months, DST days included. */
export function zoneBuckets(zone: TimeZone, unit: BucketUnit): BucketClock {
  return { floor: (sec) => zone.bucketStart(unit, sec), next: (start) => zone.bucketAfter(unit, start, 1) };
}
