/**
 * --tz: the range's bare dates are that zone's days (turned into UTC instants for the service), and a zone
 * is refused when its offset is not a whole hour anywhere in the range, since adreport builds its days from
 * the service's hourly UTC buckets.
 */
import { parseInstant } from "../../contract";
import { BARE_DATE, dayOfSecond, formatDateTime } from "../../core/calendar";
import { UsageError } from "../../core/errors";
import { offsetText, type TimeZone } from "../../core/time-zone";

/** A --from / --to value (already resolved by resolveWhen) as an instant the service reads. */
export function instantInZone(text: string, role: "from" | "to", zone: TimeZone): string {
  if (!BARE_DATE.test(text)) return text;
  const instant = parseInstant(text, "from");
  if (instant === undefined) return text;
  const day = dayOfSecond(instant.sec);
  return formatDateTime(role === "from" ? zone.dayStart(day) : zone.dayStart(day + 1) - 1);
}

/** Exit 2 when the zone's offset is not a whole hour somewhere in [from, to] (seconds). */
export function requireWholeHourOffsets(zone: TimeZone, from: number, to: number): void {
  const problem = zone.wholeHourProblem(from, to);
  if (problem === undefined) return;
  throw new UsageError(
    `${zone.given}: ${zone.name} is ${offsetText(problem.offset)} from UTC on ${zone.dateText(problem.at)}, not a whole hour, so its days cannot be built from the service's hourly buckets`,
    {
      hint: "use a zone whose offset is whole hours (UTC, Europe/Berlin, America/New_York), or leave out --tz for UTC",
    },
  );
}
