/**
 * Where date buckets start, as the service cuts them (docs/service.md §4): UTC hours, days from 00:00, ISO weeks
 * from Monday 00:00, months from the 1st. A clock for another zone (--tz) implements the same interface.
 */
import { civilFromDays, daysFromCivil, type Granularity, SECONDS_PER_DAY } from "../contract";
import type { BucketUnit, TimeZone } from "../core/time-zone";

export interface BucketClock {
  /** The start of the bucket the second falls in. */
  floor(sec: number): number;
  /** The start of the bucket after the one starting at `start`. */
  next(start: number): number;
}

/** 1970-01-01 was a Thursday: three days after a Monday. */
const DAYS_AFTER_MONDAY_AT_EPOCH = 3;

function monthStart(sec: number, monthsLater: number): number {
  const { year, month } = civilFromDays(Math.floor(sec / SECONDS_PER_DAY));
  const index = year * 12 + (month - 1) + monthsLater;
  return daysFromCivil(Math.floor(index / 12), (index % 12) + 1, 1) * SECONDS_PER_DAY;
}

export function utcBuckets(granularity: Granularity): BucketClock {
  switch (granularity) {
    case "hour":
      return { floor: (sec) => Math.floor(sec / 3600) * 3600, next: (start) => start + 3600 };
    case "day":
      return {
        floor: (sec) => Math.floor(sec / SECONDS_PER_DAY) * SECONDS_PER_DAY,
        next: (start) => start + SECONDS_PER_DAY,
      };
    case "week":
      return {
        floor: (sec) => {
          const days = Math.floor(sec / SECONDS_PER_DAY);
          return (days - ((((days + DAYS_AFTER_MONDAY_AT_EPOCH) % 7) + 7) % 7)) * SECONDS_PER_DAY;
        },
        next: (start) => start + 7 * SECONDS_PER_DAY,
      };
    case "month":
      return { floor: (sec) => monthStart(sec, 0), next: (start) => monthStart(start, 1) };
  }
}

/** The buckets of a zone (--tz): its hours, days, ISO weeks and months, DST days included. */
export function zoneBuckets(zone: TimeZone, unit: BucketUnit): BucketClock {
  return { floor: (sec) => zone.bucketStart(unit, sec), next: (start) => zone.bucketAfter(unit, start, 1) };
}
