/**
 * The give-up of a run asked to wait longer than it may (core/wait.ts has the rule): past the run's
 * deadline, past the longest wait accepted, or a quota spent for hours (a daily quota): QuotaError, at once.
 * Every wait before a request comes here, whoever asked for it.
 */
import { formatWait } from "../core/duration";
import { QuotaError } from "../core/errors";
import { DAILY_QUOTA_MS } from "../core/wait";

/** ` (until 2026-11-26 06:00 UTC)`, or nothing for a time no calendar holds or past the year 9999. */
function untilText(ms: number): string {
  const until = new Date(ms);
  const shown = !Number.isNaN(until.getTime()) && until.getUTCFullYear() <= 9999;
  return shown ? ` (until ${until.toISOString().slice(0, 16).replace("T", " ")} UTC)` : "";
}

export interface WaitLimits {
  nowMs: number;
  /** When the run must end (epoch ms), if it must. */
  deadline: number | undefined;
  /** The longest wait accepted at all. */
  maxWaitMs: number;
  /**
   * The part of the wait the pace asks for between this request and the one before (default: all of it);
   * the rest is the turns of requests queued before it. That part is held to `maxWaitMs` and the quota,
   * the whole wait to the deadline.
   */
  paceMs?: number | undefined;
}

/**
 * The error for a wait of `waitMs` asked for by `what` (`the service answered 429`), or undefined when the
 * wait fits. `daily` is true when the service said so (an error code, a quota policy of a day). `asks` says
 * who holds the run back (the service, by default).
 */
export function quotaGiveUp(
  what: string,
  waitMs: number,
  daily: boolean,
  limits: WaitLimits,
  asks = "the service asks to wait",
): QuotaError | undefined {
  const pace = limits.paceMs ?? waitMs;
  const spent = daily || pace > DAILY_QUOTA_MS;
  const tooLong = pace > limits.maxWaitMs;
  const left = limits.deadline === undefined ? undefined : limits.deadline - limits.nowMs;
  const pastDeadline = left !== undefined && waitMs > left;
  if (!spent && !pastDeadline && !tooLong) return undefined;
  const shown = spent || tooLong ? pace : waitMs;
  const leftMs = Math.max(0, left ?? 0);
  const byDeadline = !spent && pastDeadline && !tooLong;
  // `1 s, longer than the 1 s left` reads as a contradiction: two waits rounded alike are said in tenths.
  const tenths = byDeadline && formatWait(shown) === formatWait(leftMs);
  const said = (ms: number) => (tenths ? `${(Math.ceil(ms / 100) / 10).toFixed(1)} s` : formatWait(ms));
  const asked = `${asks} ${said(shown)}${untilText(limits.nowMs + shown)}`;
  const message = spent
    ? `the daily quota is spent (${what}); ${asked}`
    : byDeadline
      ? `${what}; ${asked}, longer than the ${tenths ? `${(Math.floor(leftMs / 100) / 10).toFixed(1)} s` : formatWait(leftMs)} left of the time allowed`
      : `${what}; ${asked}`;
  return new QuotaError(message, shown, spent, {
    hint: spent ? "run the export again once the quota is renewed" : "run the export again later",
  });
}
