/**
 * One pace for every request of a client (every page in flight, every window of a split, both periods of
 * a comparison), and through a shared ledger for every client and process of one key. Before each request
 * `grant()` waits for its send time; `answered()` learns from each answer:
 * - the service's rate-limit fields (rate-headers.ts): a token bucket of its quota and window, its tokens
 *   set to what the service says remains less the requests sent since (in flight, not yet counted there);
 * - without them, 429s (adaptive-rate.ts);
 * - Retry-After on a 429 or 503: nothing is sent before it;
 * - the user's cap (`rate`): requests spaced by at least its interval, whatever else allows.
 */
import { MemoryPaceLedger, type PaceLedger } from "../core/pace-slot";
import { type Rate, rateIntervalMs } from "../core/rate";
import { AdaptiveRate } from "./adaptive-rate";
import { quotaGiveUp } from "./quota";
import { readRateSignal } from "./rate-headers";
import { abortableSleep, DEFAULT_BACKOFF, retryAfterMs, type Sleep } from "./retry";

type Headers = Record<string, string | string[] | undefined>;

export interface PacerOptions {
  /** The user's cap, never exceeded. */
  cap?: Rate | undefined;
  /** The schedule shared with other clients or processes of the same key (default: this pacer's own). */
  ledger?: PaceLedger | undefined;
  now?: () => number;
  sleep?: Sleep;
  /** The longest wait accepted before a request (default: the longest Retry-After retries wait for). */
  maxWaitMs?: number;
}

/** A granted request, handed back to `answered()`. */
export interface PaceTicket {
  readonly seq: number;
}

export interface PaceStats {
  /** Requests granted. */
  requests: number;
  /** Answers 429. */
  throttled: number;
  /** Time requests spent waiting for their turn, in all. */
  waitedMs: number;
}

/** The bucket the service announced: so many requests per window, `burst` at once. */
interface Limit {
  intervalMs: number;
  burst: number;
}

/** Mirrors the service's bucket a little slower than announced: clocks and timers are not exact. */
const MARGIN = 1.02;

export class Pacer {
  readonly stats: PaceStats = { requests: 0, throttled: 0, waitedMs: 0 };
  private readonly ledger: PaceLedger;
  private readonly now: () => number;
  private readonly sleep: Sleep;
  private readonly capMs: number;
  private readonly maxWaitMs: number;
  private readonly adaptive = new AdaptiveRate();
  private limit: Limit | undefined;
  private issued = 0;
  private observedSeq = 0;
  /** The schedule is at least this (a count of what the service says remains). */
  private floor = 0;
  /** Nothing is sent before this (a Retry-After, a spent quota); why, for the message. */
  private holdUntil = 0;
  private holdReason = "";
  private holdDaily = false;
  private capNext = 0;
  private lastSent = Number.NEGATIVE_INFINITY;
  private queue: Promise<unknown> = Promise.resolve();
  /** The time a sleep was asked to last until: an injected sleep that returns at once still moves time on. */
  private slept = 0;

  constructor(options: PacerOptions = {}) {
    this.ledger = options.ledger ?? new MemoryPaceLedger();
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? abortableSleep;
    this.capMs = options.cap === undefined ? 0 : rateIntervalMs(options.cap);
    this.maxWaitMs = options.maxWaitMs ?? DEFAULT_BACKOFF.maxRetryAfterMs;
  }

  /** The pace now: requests per second, or undefined when nothing limits it. */
  perSecond(): number | undefined {
    const intervals = [this.limit?.intervalMs ?? this.adaptive.intervalMs(), this.capMs];
    const interval = Math.max(...intervals);
    return interval > 0 ? 1000 / interval : undefined;
  }

  /**
   * Waits for a request's turn. Throws QuotaError at once when the service asked to wait past `deadline`
   * (epoch ms) or for hours, and the signal's reason when it aborts.
   */
  async grant(signal?: AbortSignal, deadline?: number): Promise<PaceTicket> {
    for (;;) {
      const reserved = this.queue.then(() => this.reserve());
      this.queue = reserved.catch(() => undefined);
      const { seq, sendAt } = await reserved;
      for (;;) {
        if (signal?.aborted) throw signal.reason;
        const now = Math.max(this.now(), this.slept);
        const due = Math.max(sendAt, this.holdUntil, this.lastSent + this.capMs);
        if (this.holdUntil > now) this.checkHold(now, deadline);
        if (due <= now) {
          this.lastSent = now;
          this.stats.requests += 1;
          return { seq };
        }
        // A hold set after this request's turn was reserved: its turn is reserved again, after the hold.
        if (this.holdUntil > sendAt) break;
        this.stats.waitedMs += due - now;
        await this.sleep(due - now, signal);
        this.slept = due;
      }
    }
  }

  /** Learns from an answer's status and headers. */
  answered(ticket: PaceTicket, status: number, headers: Headers): void {
    const now = this.now();
    if (status === 429) this.stats.throttled += 1;
    const signal = readRateSignal(headers, now);
    if (signal !== undefined && ticket.seq > this.observedSeq) {
      this.observedSeq = ticket.seq;
      const { quota, windowMs } = signal;
      const policy = quota !== undefined && windowMs !== undefined && quota > 0;
      if (policy) this.limit = { intervalMs: (windowMs / quota) * MARGIN, burst: quota };
      if (signal.remaining !== undefined) {
        // What remains, less the requests reserved since this one (the service had not counted them yet).
        const left = signal.remaining - (this.issued - ticket.seq);
        // Without a policy, what is left is spread over what remains of the window.
        if (!policy && signal.resetMs !== undefined) {
          this.limit = { intervalMs: (signal.resetMs / Math.max(1, left)) * MARGIN, burst: 1 };
        }
        // The bucket holds `left` tokens now: the schedule moves to where that is so (a token bucket refills
        // as it goes, so none left means one interval to wait, not the whole window).
        const limit = this.limit;
        if (limit !== undefined) this.floor = Math.max(this.floor, now + (limit.burst - left) * limit.intervalMs);
        else if (left < 1) this.hold(now + 1000, "no requests left of the quota", false);
      }
      if (signal.spentMs !== undefined) this.hold(now + signal.spentMs, "its RateLimit fields say none is left", false);
    }
    if (status === 429 || status === 503) {
      const wait = retryAfterMs(headers["retry-after"], now);
      if (wait !== undefined) this.hold(now + wait, `the service answered ${status}`, false);
      if (status === 429 && this.limit === undefined) this.adaptive.throttled(ticket.seq, this.issued, now);
    } else if (status < 400) {
      this.adaptive.succeeded(now);
    }
  }

  /** Marks the service's quota as spent until `until` (a daily quota a 429's body names, for one). */
  hold(until: number, reason: string, daily: boolean): void {
    if (until <= this.holdUntil) return;
    this.holdUntil = until;
    this.holdReason = reason;
    this.holdDaily = daily;
  }

  private checkHold(now: number, deadline: number | undefined): void {
    const error = quotaGiveUp(this.holdReason, this.holdUntil - now, this.holdDaily, {
      nowMs: now,
      deadline,
      maxWaitMs: this.maxWaitMs,
    });
    if (error) throw error;
  }

  private async reserve(): Promise<{ seq: number; sendAt: number }> {
    this.issued += 1;
    const seq = this.issued;
    const limit = this.limit ?? { intervalMs: this.adaptive.intervalMs(), burst: 1 };
    const tolerance = Math.max(0, limit.burst - 1) * limit.intervalMs;
    const now = Math.max(this.now(), this.capNext);
    const floor = Math.max(this.floor, this.holdUntil + tolerance);
    const sendAt = await this.ledger.reserve({ now, intervalMs: limit.intervalMs, burst: limit.burst, floor });
    this.capNext = sendAt + this.capMs;
    return { seq, sendAt };
  }
}
