/**
 * The rules of the settings a flag may give as a word, without a schema library: settings.ts declares the
 * settings with zod around these, and `report` checks its flags with them before anything heavy loads, so
 * both say the same words.
 */
import { parseDuration } from "../core/duration";
import { quote } from "../core/quote";
import { formatRate, parseRate } from "../core/rate";
import { TimeZone } from "../core/time-zone";
import { readWholeNumber } from "../core/whole-number";

export type CheckResult<T> = { ok: true; value: T } | { ok: false; message: string };

const refused = (message: string): { ok: false; message: string } => ({ ok: false, message });

/** A whole number from `min` to `max`, given as a number or as text. */
export function wholeNumberRule(min: number, max: number) {
  return (value: unknown): CheckResult<number> => {
    const text = typeof value === "string" ? value.trim() : undefined;
    const n = typeof value === "number" ? value : text !== undefined ? readWholeNumber(text) : undefined;
    if (n !== undefined && Number.isInteger(n) && n >= min && n <= max) return { ok: true, value: n };
    return refused(`expected a whole number from ${min} to ${max}`);
  };
}

/** A positive duration in seconds up to `maxSeconds`, from a number of seconds or a text such as `30s`. */
export function durationRule(maxSeconds: number, message: string) {
  return (value: number | string): CheckResult<number> => {
    const seconds = typeof value === "number" ? value : parseDuration(value);
    return seconds !== undefined && seconds > 0 && seconds <= maxSeconds
      ? { ok: true, value: seconds }
      : refused(message);
  };
}

/** Days a job's newest day may lag behind yesterday (`2d`, or a whole number of days), 0 to 366. */
export function maxLagRule(value: unknown): CheckResult<number> {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  const match = /^(\d+)d?$/.exec(text);
  const n = match ? readWholeNumber(match[1] as string) : undefined;
  if (n !== undefined && n <= 366) return { ok: true, value: n };
  return refused("expected a number of days such as 2d (0d: yesterday must be exported; at most 366d)");
}

/** A rate such as 10/s or 120/min, at most 1000 a second, written back in one form. */
export function rateRule(text: string): CheckResult<string> {
  const rate = parseRate(text);
  if (rate === undefined || (rate.per === "s" ? rate.n : rate.n / 60) > 1000) {
    return refused("expected a rate such as 10/s or 120/min (at most 1000/s)");
  }
  return { ok: true, value: formatRate(rate) };
}

/** An IANA time zone name, as the system names it. */
export function zoneRule(name: string): CheckResult<string> {
  try {
    return { ok: true, value: TimeZone.open(name).name };
  } catch {
    return refused(`${quote(name)} is not a time zone; expected an IANA name such as Europe/Berlin or UTC`);
  }
}

export const PAGE_SIZE_RULE = wholeNumberRule(1, 10_000);
export const CONCURRENCY_RULE = wholeNumberRule(1, 32);
export const RETRIES_RULE = wholeNumberRule(0, 10);
export const TIMEOUT_RULE = durationRule(3600, "expected a duration such as 30s, 500ms or 2m (at most 1h)");
export const MAX_TIME_RULE = durationRule(7 * 24 * 3600, "expected a duration such as 10m, 1h or 90s (at most 7 days)");

/**
 * The rules of the settings `report` takes as words and checks before it loads the rest, in the order
 * resolve.ts meets them (that of SETTINGS). The settings it leaves to resolve.ts (--base-url, --profile and
 * the config file's values) are checked after these, where resolve.ts checked them first.
 */
export const FLAG_SETTING_RULES: Readonly<Record<string, (text: string) => CheckResult<unknown>>> = {
  "page-size": PAGE_SIZE_RULE,
  concurrency: CONCURRENCY_RULE,
  timeout: TIMEOUT_RULE,
  retries: RETRIES_RULE,
  "max-time": MAX_TIME_RULE,
  rate: rateRule,
  tz: zoneRule,
};
