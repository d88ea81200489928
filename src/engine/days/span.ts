/** The days of a run into whole-day targets: the spans its windows cover, the days (buckets) it may write. */
import { bucketFirstDay, bucketUnitOf, dayText } from "../../core/calendar";
import type { DaySpan } from "../../targets/day-target";
import { dayNumber, daysBetween } from "../plan/incremental";

/** The days a run from `from` to `to` may write: each day, or each week's Monday, each month's 1st. */
export function bucketDays(from: string, to: string, granularity: string): string[] {
  const first = dayNumber(from);
  const last = dayNumber(to);
  if (first === undefined || last === undefined) return [];
  const unit = bucketUnitOf(granularity) ?? "day";
  const days = new Set<string>();
  for (let n = bucketFirstDay(unit, first); n <= last; n += 1) days.add(dayText(bucketFirstDay(unit, n)));
  return [...days];
}

export function spanOf(from: string, to: string, granularity: string): DaySpan {
  const unit = bucketUnitOf(granularity);
  const daily = unit === "day" || unit === "hour";
  let first = from.slice(0, 10);
  let last = to.slice(0, 10);
  // A window ends on its last second: 23:59:59 of its last day.
  if (dayNumber(first) !== undefined && dayNumber(last) === undefined) last = first;
  // A week or month that starts before --from is dated by its first day: a table's rows of that bucket are
  // replaced too, or a run repeated would add them a second time.
  const firstDay = dayNumber(first);
  if (!daily && firstDay !== undefined) first = dayText(bucketFirstDay(unit ?? "day", firstDay));
  return { from: first, to: last, everyDay: daily ? daysBetween(first, last) : [] };
}
