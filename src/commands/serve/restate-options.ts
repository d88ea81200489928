/** The words of the restatement flags of `serve demo`, `serve restate` and `serve clock`. */
import { parseInstant } from "../../contract";
import { formatDateTime, SECONDS_PER_DAY } from "../../core/calendar";
import { parseDuration } from "../../core/duration";
import { UsageError } from "../../core/errors";
import { quote } from "../../core/quote";
import { readWholeNumber } from "../../core/whole-number";
import { MAX_HORIZON_DAYS, type ModelStatus } from "../../server";

export const DEFAULT_RESTATE_SEED = 1;
export const DEFAULT_HORIZON = "30d";

/** `30d`: whole days from 1 to MAX_HORIZON_DAYS. */
export function parseHorizon(flag: string, text: string): number {
  const match = /^(\d+)d$/.exec(text.trim());
  const days = match ? readWholeNumber(match[1] as string) : undefined;
  if (days === undefined || days < 1 || days > MAX_HORIZON_DAYS) {
    throw new UsageError(`${flag}: ${quote(text)} is not a number of days from 1d to ${MAX_HORIZON_DAYS}d`, {
      hint: `for example ${flag} 30d`,
    });
  }
  return days;
}

/** `2026-09-01` (its midnight UTC) or `2026-09-01T06:00Z`: epoch seconds, floored. */
export function parseClock(flag: string, text: string): number {
  const instant = parseInstant(text.trim(), "from");
  if (!instant) {
    throw new UsageError(`${flag}: ${quote(text)} is not a date or a date-time`, {
      hint: `for example ${flag} 2026-09-01 or ${flag} 2026-09-01T06:00Z`,
    });
  }
  return instant.sec;
}

/** `1d`, `6h`, `30m`: a step forward of the clock in seconds, at least one second. */
export function parseStep(flag: string, text: string): number {
  const days = /^(\d+)d$/.exec(text.trim());
  const seconds = days ? Number(days[1]) * SECONDS_PER_DAY : parseDuration(text);
  if (seconds === undefined || !Number.isInteger(seconds) || seconds < 1 || seconds > 3660 * SECONDS_PER_DAY) {
    throw new UsageError(`${flag}: ${quote(text)} is not a step of whole seconds such as 1d, 6h or 30m`);
  }
  return seconds;
}

/** `2026-09-01` for a midnight, else the date-time. */
export function clockText(sec: number): string {
  const text = formatDateTime(sec);
  return sec % SECONDS_PER_DAY === 0 ? text.slice(0, 10) : text;
}

/** The model in one line, for the operator (stderr). */
export function modelLine(status: ModelStatus): string {
  const deleted =
    status.deleted.length === 0
      ? "no ad deleted"
      : `ads deleted: ${status.deleted.map((d) => `${d.adId} at ${formatDateTime(d.deletedAt)}`).join(", ")}`;
  return `restatement model seed ${status.seed}, horizon ${status.horizonDays}d, clock ${formatDateTime(status.clock)}; ${deleted}`;
}
