/**
 * The values of --from and --to: the cron words `today`, `yesterday` and `-Nd` (N days before today),
 * all UTC days, which become bare dates; or a date or date-time the contract reads (contract/time.ts).
 * A bare date is the start of its day for --from and its last second for --to. Anything else is refused
 * here with every accepted form listed, which the contract's own message (shared with the server, which
 * knows no cron words) does not do.
 */
import { parseInstant } from "../../contract/time";
import { dayOfInstant, dayText } from "../../core/calendar";
import { UsageError } from "../../core/errors";
import { quote } from "../../core/quote";
import type { TimeZone } from "../../core/time-zone";
import { readWholeNumber } from "../../core/whole-number";

export const WHEN_FORMS =
  "today, yesterday, -Nd (N days before today), a date (2026-11-01) or a date-time with Z or an offset (2026-11-01T13:00:00Z, 2026-11-01T15:00:00+02:00)";

/** N of `-Nd`, or undefined when the word is not of that form. */
function daysAgo(word: string): number | undefined {
  return word.startsWith("-") && word.endsWith("d") ? readWholeNumber(word.slice(1, -1)) : undefined;
}

/**
 * The refusal of a --from / --to that is none of the forms, whatever the day and zone; undefined for one
 * of them. Cheap: `report` asks it before it loads the export's libraries.
 */
export function whenFormError(text: string, flag: "--from" | "--to"): UsageError | undefined {
  const word = text.trim().toLowerCase();
  if (word === "today" || word === "yesterday" || daysAgo(word) !== undefined) return undefined;
  if (parseInstant(text.trim(), flag === "--from" ? "from" : "to") !== undefined) return undefined;
  return new UsageError(`${flag}: ${quote(text)} is not one of: ${WHEN_FORMS}`, {
    hint: "days are UTC (or --tz's); a date given to --to means its last second (23:59:59)",
  });
}

/** With `zone`, the words count that zone's days (--tz); the caller reads bare dates in the zone too. */
export function resolveWhen(text: string, now: Date, flag: "--from" | "--to", zone?: TimeZone): string {
  const word = text.trim().toLowerCase();
  const today = zone ? zone.localDay(Math.floor(now.getTime() / 1000)) : dayOfInstant(now);
  const day = (back: number) => dayText(today - back);
  if (word === "today") return day(0);
  if (word === "yesterday") return day(1);
  const n = daysAgo(word);
  if (n !== undefined) {
    // Before 1970 there is no data (dates travel as epoch seconds), and a bigger N is a typo.
    if (n > today) {
      throw new UsageError(
        `${flag}: ${word} is out of range: the earliest day is 1970-01-01, which is -${today}d today`,
      );
    }
    return day(n);
  }
  const refused = whenFormError(text, flag);
  if (refused) throw refused;
  return text.trim();
}
