/**
 * The service's limit as a run knows it from the answers: the token bucket its rate-limit fields announce
 * (rate-headers.ts), mirrored a little slower than announced, or without them the pace its 429s set
 * (adaptive-rate.ts); and how far that bucket holds the schedule back (what the service says remains, less
 * the requests in flight it had not counted yet).
 */
import { AdaptiveRate } from "./adaptive-rate";
import { leftReason, policyReason, throttledReason } from "./pace-reasons";
import type { RateSignal } from "./rate-headers";

/** So many requests per window, `burst` at once. */
export interface Bucket {
  intervalMs: number;
  burst: number;
}

/** The bucket the service announced; `what`, in words. */
interface Limit extends Bucket {
  what: string;
}

/** An answer's request: its turn in the run's schedule, and how many had been sent when it was (it included). */
export interface AnsweredRequest {
  readonly seq: number;
  readonly sent: number;
}

/** How far the run got when the answer came: turns reserved, requests sent. */
export interface RunCounts {
  issued: number;
  sent: number;
}

/** Mirrors the service's bucket a little slower than announced: clocks and timers are not exact. */
const MARGIN = 1.02;

export class ServiceLimit {
  /** The schedule is at least this (a count of what the service says remains, less the turns reserved). */
  floor = 0;
  /**
   * The same count less only the requests sent since: what the key's other runs are told. The turns this
   * run reserved ahead are its own; shared, they would hold the others after this run ended (issue 35).
   */
  sentFloor = 0;
  private limit: Limit | undefined;
  private readonly adaptive = new AdaptiveRate();
  private observedSeq = 0;

  /** `maxWaitMs`: the longest wait accepted before a request. */
  constructor(private readonly maxWaitMs: number) {}

  /** The bucket the schedule keeps to now (none yet: an interval of 0). */
  bucket(): Bucket {
    return this.limit ?? { intervalMs: this.adaptive.intervalMs(), burst: 1 };
  }

  /** Why the bucket holds a request back, in words. */
  reason(): string {
    if (this.limit) return this.limit.what;
    return throttledReason(this.adaptive.intervalMs());
  }

  /**
   * Learns from the rate-limit fields of the answer to `request`, unless a later request's answer was read
   * already. `hold` is told when nothing may be sent before a time (none left, a quota spent).
   */
  read(
    signal: RateSignal,
    request: AnsweredRequest,
    counts: RunCounts,
    now: number,
    hold: (until: number, reason: string) => void,
  ): void {
    if (request.seq <= this.observedSeq) return;
    this.observedSeq = request.seq;
    const { quota, windowMs } = signal;
    const policy = quota !== undefined && windowMs !== undefined && quota > 0;
    if (policy) {
      this.limit = { intervalMs: (windowMs / quota) * MARGIN, burst: quota, what: policyReason(quota, windowMs) };
    }
    if (signal.remaining !== undefined) {
      // What remains, less the requests reserved since this one (the service had not counted them yet).
      const left = signal.remaining - (counts.issued - request.seq);
      // Without a policy, what is left is spread over what remains of the window; when that is slower
      // than any wait accepted, it is spent at once instead (and the wait after it ends the run). None
      // left is a wait until the reset (`spentMs`), not a pace.
      if (!policy && signal.resetMs !== undefined && signal.remaining > 0) {
        const intervalMs = (signal.resetMs / Math.max(1, left)) * MARGIN;
        const burst = intervalMs > this.maxWaitMs ? Math.max(1, left) : 1;
        this.limit = { intervalMs, burst, what: leftReason(left, signal.resetMs) };
      }
      // The bucket holds `left` tokens now: the schedule moves to where that is so (a token bucket refills
      // as it goes, so none left means one interval to wait, not the whole window).
      const limit = this.limit;
      if (limit !== undefined) {
        this.floor = Math.max(this.floor, now + (limit.burst - left) * limit.intervalMs);
        const leftOfSent = signal.remaining - (counts.sent - request.sent);
        this.sentFloor = Math.max(this.sentFloor, now + (limit.burst - leftOfSent) * limit.intervalMs);
      } else if (left < 1) hold(now + 1000, "no requests left of the quota");
    }
    if (signal.spentMs !== undefined) hold(now + signal.spentMs, "its RateLimit fields say none is left");
  }

  /** A 429 to the request reserved as `seq`: without an announced bucket, the pace slows. */
  throttled(seq: number, issued: number, now: number): void {
    if (this.limit === undefined) this.adaptive.throttled(seq, issued, now);
  }

  succeeded(now: number): void {
    this.adaptive.succeeded(now);
  }
}
