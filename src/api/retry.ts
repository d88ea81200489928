/** When to retry and how long to wait: exponential backoff with full jitter, or what Retry-After says. */

export const RETRIABLE_STATUSES = new Set([429, 500, 502, 503, 504]);

export interface BackoffPolicy {
  baseMs: number;
  capMs: number;
  /** The longest Retry-After we wait for; a longer one ends the export. */
  maxRetryAfterMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 250, capMs: 20_000, maxRetryAfterMs: 300_000 };

/** Full jitter: a random wait between 0 and min(cap, base * 2^attempt). `attempt` counts from 0. */
export function backoffMs(policy: BackoffPolicy, attempt: number, random: () => number): number {
  return Math.round(random() * Math.min(policy.capMs, policy.baseMs * 2 ** attempt));
}

/** Retry-After as seconds or as an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, nowMs: number): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === "") return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
