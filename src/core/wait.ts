/**
 * The one rule every wait before a request follows, whatever asked for it (a Retry-After, the RateLimit
 * fields old and new, X-RateLimit-*, the pace of 429s, the pace a key keeps on the host): a wait up to
 * MAX_WAIT_MS is waited for, a longer one ends the run at once (api/quota.ts says how), and one past
 * DAILY_QUOTA_MS is a spent quota. A wait from LONG_WAIT_MS on is announced before it starts. And no delay
 * reaches a timer but through `timerDelay`.
 */

/** The longest wait accepted before a request; a longer one ends the run (exit 5). */
export const MAX_WAIT_MS = 300_000;

/** A wait this long means a quota of the day (or so) is spent, not a moment's throttling. */
export const DAILY_QUOTA_MS = 3_600_000;

/** A wait a person notices: said on stderr before it starts. */
export const LONG_WAIT_MS = 5_000;

/** The most a Node timer holds: a longer delay fires after 1 ms, with a TimeoutOverflowWarning. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A delay a timer can hold: never negative, never NaN, never past what a timer keeps. */
export function timerDelay(ms: number): number {
  if (Number.isNaN(ms) || ms <= 0) return 0;
  return Math.min(ms, MAX_TIMER_MS);
}
