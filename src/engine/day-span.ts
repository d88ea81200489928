/** The days of a run into whole-day targets: the spans its windows cover, the days (buckets) it may write. */
import type { DaySpan } from "../targets/day-target";
import { bucketStart, dayNumber, daysBetween, dayText } from "./incremental";

/** The days a run from `from` to `to` may write: each day, or each week's Monday, each month's 1st. */
export function bucketDays(from: string, to: string, granularity: string): string[] {
  const first = dayNumber(from);
  const last = dayNumber(to);
  if (first === undefined || last === undefined) return [];
  const days = new Set<string>();
  for (let n = bucketStart(first, granularity); n <= last; n += 1) days.add(dayText(bucketStart(n, granularity)));
  return [...days];
}

export function spanOf(from: string, to: string, granularity: string): DaySpan {
  const daily = granularity === "day" || granularity === "daily" || granularity === "hour" || granularity === "hourly";
  let first = from.slice(0, 10);
  let last = to.slice(0, 10);
  // A window ends on its last second: 23:59:59 of its last day.
  if (dayNumber(first) !== undefined && dayNumber(last) === undefined) last = first;
  // A week or month that starts before --from is dated by its first day: a table's rows of that bucket are
  // replaced too, or a run repeated would add them a second time.
  const firstDay = dayNumber(first);
  if (!daily && firstDay !== undefined) first = dayText(bucketStart(firstDay, granularity));
  return { from: first, to: last, everyDay: daily ? daysBetween(first, last) : [] };
}
