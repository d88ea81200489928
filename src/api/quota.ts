/**
 * The give-up of a run whose service asks to wait longer than the run may: past the run's deadline, past
 * the longest wait the client accepts, or a quota spent for hours (a daily quota): QuotaError, at once.
 */
import { QuotaError } from "../core/errors";

/** A wait this long means a quota of the day (or so) is spent, not a moment's throttling. */
export const DAILY_QUOTA_MS = 3_600_000;

/** `45 s`, `12 min`, `5 h`, `2.5 h`: a wait the way a person reads it. */
export function formatWait(ms: number): string {
  if (ms <= 120_000) return `${Math.ceil(ms / 1000)} s`;
  if (ms < 2 * DAILY_QUOTA_MS) return `${Math.ceil(ms / 60_000)} min`;
  return `${Math.round((ms / DAILY_QUOTA_MS) * 10) / 10} h`;
}

export interface WaitLimits {
  nowMs: number;
  /** When the run must end (epoch ms), if it must. */
  deadline: number | undefined;
  /** The longest wait accepted at all. */
  maxWaitMs: number;
}

/**
 * The error for a wait of `waitMs` asked for by `what` (`the service answered 429`), or undefined when the
 * wait fits. `daily` is true when the service said so (an error code, a quota policy of a day).
 */
export function quotaGiveUp(what: string, waitMs: number, daily: boolean, limits: WaitLimits): QuotaError | undefined {
  const spent = daily || waitMs > DAILY_QUOTA_MS;
  const left = limits.deadline === undefined ? undefined : limits.deadline - limits.nowMs;
  const pastDeadline = left !== undefined && waitMs > left;
  if (!spent && !pastDeadline && waitMs <= limits.maxWaitMs) return undefined;
  const until = new Date(limits.nowMs + waitMs).toISOString().slice(0, 16).replace("T", " ");
  const asks = `the service asks to wait ${formatWait(waitMs)} (until ${until} UTC)`;
  const message = spent
    ? `the daily quota is spent (${what}); ${asks}`
    : pastDeadline
      ? `${what}; ${asks}, longer than the ${formatWait(Math.max(0, left ?? 0))} left of the time allowed`
      : `${what}; ${asks}`;
  return new QuotaError(message, waitMs, spent, {
    hint: spent ? "run the export again once the quota is renewed" : "run the export again later",
  });
}
