/**
 * A report's range as the tables hold it (whole days from day rollups, partial days at its edges from hourly
 * rows), and the key of a computed report, the same on both backends.
 */
import type { ReportQuery } from "../../contract";
import { SECONDS_PER_DAY as DAY, SECONDS_PER_HOUR as HOUR } from "../../core/calendar";

export interface TimeSegments {
  /** [first, last] epoch seconds of hourly rows to read, inclusive; may be several. */
  hourly: Array<[number, number]>;
  /** [first, last] midnights of whole days to read from rollups, inclusive, or undefined. */
  daily: [number, number] | undefined;
}

/** Splits the hours h with from <= h <= to into whole days and hourly edges. */
export function timeSegments(query: ReportQuery, hourlyOnly: boolean): TimeSegments | undefined {
  const fromSec = query.from.nano > 0 ? query.from.sec + 1 : query.from.sec;
  const firstHour = Math.ceil(fromSec / HOUR) * HOUR;
  const lastHour = Math.floor(query.to.sec / HOUR) * HOUR;
  if (firstHour > lastHour) return undefined;
  const firstDay = Math.ceil(firstHour / DAY) * DAY;
  const lastDay = Math.floor((lastHour - 23 * HOUR) / DAY) * DAY;
  if (hourlyOnly || firstDay > lastDay) return { hourly: [[firstHour, lastHour]], daily: undefined };
  const hourly: Array<[number, number]> = [];
  if (firstHour < firstDay) hourly.push([firstHour, firstDay - HOUR]);
  if (lastDay + DAY <= lastHour) hourly.push([lastDay + DAY, lastHour]);
  return { hourly, daily: [firstDay, lastDay] };
}

/**
 * One string for everything that decides a computed report's rows (not its pages): the same key on both
 * backends, so a report computed once serves every page of it.
 */
export function computedReportKey(query: ReportQuery, advertiserId: number): string {
  const segments = timeSegments(query, false);
  return JSON.stringify([
    advertiserId,
    query.entity,
    query.byDate && query.granularity,
    segments?.hourly,
    segments?.daily,
    query.campaignId,
    query.adId,
    query.metrics,
  ]);
}
