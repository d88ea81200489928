/**
 * When to retry and how long to wait, and the one budget of `retries + 1` tries a page has: exponential
 * backoff with full jitter, or what Retry-After says, whatever failed (the connection, the headers, the body
 * or its parsing).
 */
import { setTimeout as sleepFor } from "node:timers/promises";
import { UnavailableError } from "../core/errors";
import { LONG_WAIT_MS, MAX_WAIT_MS, timerDelay } from "../core/wait";
import { followSignal } from "./follow-signal";
import { quotaGiveUp } from "./quota";
import type { WaitEvent } from "./wait-event";

export const RETRIABLE_STATUSES = new Set([429, 500, 502, 503, 504]);

export interface BackoffPolicy {
  baseMs: number;
  capMs: number;
  /** The longest Retry-After we wait for; a longer one ends the export (QuotaError). */
  maxRetryAfterMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 250, capMs: 20_000, maxRetryAfterMs: MAX_WAIT_MS };

/** Full jitter: a random wait between 0 and min(cap, base * 2^attempt). `attempt` counts from 0. */
function backoffMs(policy: BackoffPolicy, attempt: number, random: () => number): number {
  return Math.round(random() * Math.min(policy.capMs, policy.baseMs * 2 ** attempt));
}

/** Retry-After as seconds or as an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, nowMs: number): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === "") return undefined;
  // Seconds; with a fraction (not the RFC's, but meant as such), or the first of two fields joined.
  const first = value.split(",")[0]?.trim() ?? "";
  if (/^\d+(\.\d+)?$/.test(first)) return Math.ceil(Number(first) * 1000);
  // A date names its month: V8 would read `1.5` or `-5` as a day of 2001, a wait of nothing.
  if (!/[a-z]/i.test(value)) return undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/** A failure worth another try (within the page's budget), with the error to raise if it was the last. */
export class Retriable extends Error {
  constructor(
    message: string,
    readonly waitMs: number | undefined,
    readonly lastTry: (message: string) => UnavailableError = (text) => new UnavailableError(text),
    /** The service said its daily (or longer) quota is spent. */
    readonly daily = false,
  ) {
    super(message);
  }
}

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/**
 * The wait between tries; an abort ends it with the signal's reason (a deadline's, an interrupt's). It
 * follows the signal as requests do (follow-signal.ts): every page of `--concurrency 32` may wait at once.
 */
export const abortableSleep: Sleep = async (ms, signal) => {
  if (signal === undefined) return await sleepFor(timerDelay(ms));
  const own = new AbortController();
  const unfollow = followSignal(signal, own);
  try {
    await sleepFor(timerDelay(ms), undefined, { signal: own.signal });
  } catch (error) {
    throw signal.aborted ? signal.reason : error;
  } finally {
    unfollow();
  }
};

export interface RetryEvent {
  kind: "retry";
  reason: string;
  waitMs: number;
  retry: number;
  of: number;
}

export interface RetryBudget {
  retries: number;
  backoff: BackoffPolicy;
  sleep: Sleep;
  random: () => number;
  /** Told of each retry, and before a wait a person notices (WaitEvent). */
  onRetry?: ((event: RetryEvent | WaitEvent) => void) | undefined;
  now?: (() => number) | undefined;
  /** When the run must end (epoch ms): a Retry-After past it ends the run at once. */
  deadline?: number | undefined;
}

/** A page whose answer has begun: status and headers are in; the body is read when it is this page's turn. */
export interface Opened<T> {
  read(): Promise<T>;
}

/**
 * `attempt` tried until it opens a page, and the page's `read()` likewise: a body that fails while being read
 * is asked for again from within `read()`, after the same backoff as any other retry, so no kind of failure
 * can start the count anew. `attempt` is given the number of failures so far.
 */
export async function openWithRetries<T>(
  budget: RetryBudget,
  label: string,
  attempt: (failures: number) => Promise<Opened<T>>,
  signal: AbortSignal | undefined,
): Promise<Opened<T>> {
  let failures = 0;
  const afterFailure = async (error: unknown): Promise<void> => {
    if (signal?.aborted) throw signal.reason;
    if (!(error instanceof Retriable)) throw error;
    if (error.waitMs !== undefined) {
      const giveUp = quotaGiveUp(error.message, error.waitMs, error.daily, {
        nowMs: (budget.now ?? Date.now)(),
        deadline: budget.deadline,
        maxWaitMs: budget.backoff.maxRetryAfterMs,
      });
      if (giveUp) throw giveUp;
    }
    failures += 1;
    if (failures > budget.retries) {
      throw error.lastTry(
        `${error.message}${budget.retries > 0 ? ` (${label}: gave up after ${failures} attempts)` : ""}`,
      );
    }
    // Retry-After is honoured, but never below the backoff: `Retry-After: 0` on every answer must not
    // turn the retries into a burst.
    const waitMs = Math.max(error.waitMs ?? 0, backoffMs(budget.backoff, failures - 1, budget.random));
    budget.onRetry?.({ kind: "retry", reason: error.message, waitMs, retry: failures, of: budget.retries });
    if (waitMs >= LONG_WAIT_MS) {
      const until = (budget.now ?? Date.now)() + waitMs;
      const reason = `before retry ${failures}/${budget.retries}: ${error.message}`;
      budget.onRetry?.({ kind: "wait", source: "retry", waitMs, until, reason });
    }
    await budget.sleep(waitMs, signal);
  };
  const open = async (): Promise<Opened<T>> => {
    for (;;) {
      try {
        return await attempt(failures);
      } catch (error) {
        await afterFailure(error);
      }
    }
  };
  let current = await open();
  return {
    read: async () => {
      for (;;) {
        try {
          return await current.read();
        } catch (error) {
          await afterFailure(error);
          current = await open();
        }
      }
    },
  };
}
