/**
 * One pace for every request of a client (every page in flight, every window of a split, both periods of
 * a comparison), and through a shared ledger for every client and process of one key. Before each request
 * `grant()` waits for its send time; `answered()` learns from each answer:
 * - the service's rate-limit fields (rate-headers.ts): a token bucket of its quota and window, its tokens
 *   set to what the service says remains less the requests sent since (in flight, not yet counted there);
 * - without them, 429s (adaptive-rate.ts);
 * - Retry-After on a 429 or 503, a quota the fields say is spent: nothing is sent before it;
 * - the user's cap (`rate`): requests spaced by at least its interval, whatever else allows.
 * The run's own turns are reserved ahead, in order; the key's shared schedule is asked for a turn only when
 * a request is due (core/pace-slot.ts). Every wait follows the one rule of core/wait.ts: one the run may
 * not wait for ends it at once (QuotaError), one a person notices is told first (`onWait`).
 */
import type { QuotaError } from "../core/errors";
import { type PaceLedger, type PaceState, reserveSlot, type SharedTurn, type TurnRequest } from "../core/pace-slot";
import { type Rate, rateIntervalMs } from "../core/rate";
import { LONG_WAIT_MS } from "../core/wait";
import { AdaptiveRate } from "./adaptive-rate";
import { formatWait, quotaGiveUp } from "./quota";
import { readRateSignal } from "./rate-headers";
import { abortableSleep, DEFAULT_BACKOFF, retryAfterMs, type Sleep } from "./retry";
import type { WaitEvent } from "./wait-event";

type Headers = Record<string, string | string[] | undefined>;

export interface PacerOptions {
  /** The user's cap, never exceeded. */
  cap?: Rate | undefined;
  /** The schedule shared with other clients or processes of the same key (default: none). */
  ledger?: PaceLedger | undefined;
  now?: () => number;
  sleep?: Sleep;
  /** The longest wait accepted before a request (default: the longest Retry-After retries wait for). */
  maxWaitMs?: number;
}

/** A granted request, handed back to `answered()`. */
export interface PaceTicket {
  readonly seq: number;
  /** How many requests had been sent when this one was (it included). */
  readonly sent: number;
}

export interface PaceStats {
  /** Requests granted. */
  requests: number;
  /** Answers 429. */
  throttled: number;
  /** Time requests spent waiting for their turn, in all. */
  waitedMs: number;
}

/** The bucket the service announced: so many requests per window, `burst` at once; `what`, in words. */
interface Limit {
  intervalMs: number;
  burst: number;
  what: string;
}

/** A request's turn in the run's own schedule; `gapMs`: how much of its wait the pace adds to the turn before. */
interface Turn {
  seq: number;
  sendAt: number;
  gapMs: number;
}

/** Mirrors the service's bucket a little slower than announced: clocks and timers are not exact. */
const MARGIN = 1.02;

function requests(n: number): string {
  return n === 1 ? "1 request" : `${n} requests`;
}

/** `1.5 s`, `25 s`, `12 min`: an interval between requests (a wait is rounded up, this to the nearest). */
function every(ms: number): string {
  if (ms < 10_000) return `${Math.round(ms / 100) / 10} s`;
  return ms < 120_000 ? `${Math.round(ms / 1000)} s` : formatWait(ms);
}

/** `runs of this key on this host keep one pace (1 request every 25 s)`: the shared schedule, in words. */
function sharedWhat(turn: SharedTurn): string {
  if (turn.heldBy === "hold") return "another run of this key on this host was told by the service to wait";
  const pace = turn.intervalMs > 0 ? ` (1 request every ${every(turn.intervalMs)})` : "";
  return `the runs of this key on this host keep one pace${pace}`;
}

export class Pacer {
  readonly stats: PaceStats = { requests: 0, throttled: 0, waitedMs: 0 };
  private readonly ledger: PaceLedger | undefined;
  private readonly now: () => number;
  private readonly sleep: Sleep;
  private readonly capMs: number;
  private readonly capWhat: string;
  private readonly maxWaitMs: number;
  private readonly adaptive = new AdaptiveRate();
  private schedule: PaceState = { tat: 0 };
  private limit: Limit | undefined;
  private issued = 0;
  private observedSeq = 0;
  /** The schedule is at least this (a count of what the service says remains, less the turns reserved). */
  private floor = 0;
  /**
   * The same count less only the requests sent since: what the key's other runs are told. The turns this
   * run reserved ahead are its own; shared, they would hold the others after this run ended (issue 35).
   */
  private sentFloor = 0;
  /** Nothing is sent before this (a Retry-After, a spent quota); why, for the message. */
  private holdUntil = 0;
  private holdReason = "";
  private holdDaily = false;
  private capNext = 0;
  private lastSent = Number.NEGATIVE_INFINITY;
  /** The send time of the last turn reserved: the next one's wait beyond it is the pace's. */
  private lastTurn = Number.NEGATIVE_INFINITY;
  /** What the shared ledger was last told of the service (so it is told only what is new). */
  private sharedFloor = 0;
  private sharedHold = 0;
  /** The time a sleep was asked to last until: an injected sleep that returns at once still moves time on. */
  private slept = 0;

  constructor(options: PacerOptions = {}) {
    this.ledger = options.ledger;
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? abortableSleep;
    this.capMs = options.cap === undefined ? 0 : rateIntervalMs(options.cap);
    this.capWhat =
      options.cap === undefined
        ? ""
        : `the rate setting allows ${requests(options.cap.n)} a ${options.cap.per === "s" ? "second" : "minute"}`;
    this.maxWaitMs = options.maxWaitMs ?? DEFAULT_BACKOFF.maxRetryAfterMs;
  }

  /** The pace now: requests per second, or undefined when nothing limits it. */
  perSecond(): number | undefined {
    const intervals = [this.limit?.intervalMs ?? this.adaptive.intervalMs(), this.capMs];
    const interval = Math.max(...intervals);
    return interval > 0 ? 1000 / interval : undefined;
  }

  /**
   * Waits for a request's turn. Throws QuotaError at once when the wait is one the run may not make: past
   * `deadline` (epoch ms), longer than the longest accepted, or hours (a spent quota); the signal's reason
   * when it aborts. `onWait` is told of a wait a person notices before it starts.
   */
  async grant(signal?: AbortSignal, deadline?: number, onWait?: (event: WaitEvent) => void): Promise<PaceTicket> {
    for (;;) {
      const turn = this.reserve();
      for (;;) {
        if (signal?.aborted) throw signal.reason;
        const now = Math.max(this.now(), this.slept);
        if (this.holdUntil > now) await this.checkHold(now, deadline);
        const capAt = this.lastSent + this.capMs;
        const due = Math.max(turn.sendAt, this.holdUntil, capAt);
        if (due <= now) {
          const shared = await this.ledger?.take(this.turnRequest(now));
          if (shared === undefined || shared.sendAt <= now) {
            this.lastSent = now;
            this.stats.requests += 1;
            return { seq: turn.seq, sent: this.stats.requests };
          }
          // Another run of the key (or one that ended) used the turn: the key's pace holds this one.
          const wait = shared.sendAt - now;
          const error = this.tooLong(sharedWhat(shared), wait, wait, false, now, deadline, "it holds this run for");
          if (error) throw error;
          await this.wait(now, shared.sendAt, "shared", sharedWhat(shared), signal, onWait);
          continue;
        }
        // A hold set after this request's turn was reserved: its turn is reserved again, after the hold.
        if (this.holdUntil > turn.sendAt) break;
        const byHold = this.holdUntil > now;
        const byCap = !byHold && capAt >= turn.sendAt;
        const what = byHold ? this.holdReason : byCap ? this.capWhat : this.paceWhat();
        // The rule for the pace (a hold was checked above): what it adds between two requests, and a long
        // wait to the deadline (a short one is left to --max-time, whose message says how far the run got).
        const long = due - now >= LONG_WAIT_MS;
        const error = byHold
          ? undefined
          : this.tooLong(what, due - now, byCap ? this.capMs : turn.gapMs, false, now, long ? deadline : undefined);
        if (error) {
          await this.share(now);
          throw error;
        }
        await this.wait(now, due, byHold ? "service" : "pace", what, signal, onWait);
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
      if (policy) {
        const what = `its RateLimit fields allow ${requests(quota)} every ${formatWait(windowMs)}`;
        this.limit = { intervalMs: (windowMs / quota) * MARGIN, burst: quota, what };
      }
      if (signal.remaining !== undefined) {
        // What remains, less the requests reserved since this one (the service had not counted them yet).
        const left = signal.remaining - (this.issued - ticket.seq);
        // Without a policy, what is left is spread over what remains of the window; when that is slower
        // than any wait accepted, it is spent at once instead (and the wait after it ends the run). None
        // left is a wait until the reset (`spentMs`), not a pace.
        if (!policy && signal.resetMs !== undefined && signal.remaining > 0) {
          const intervalMs = (signal.resetMs / Math.max(1, left)) * MARGIN;
          const what = `its RateLimit fields say ${requests(Math.max(0, left))} left for ${formatWait(signal.resetMs)}`;
          const burst = intervalMs > this.maxWaitMs ? Math.max(1, left) : 1;
          this.limit = { intervalMs, burst, what };
        }
        // The bucket holds `left` tokens now: the schedule moves to where that is so (a token bucket refills
        // as it goes, so none left means one interval to wait, not the whole window).
        const limit = this.limit;
        if (limit !== undefined) {
          this.floor = Math.max(this.floor, now + (limit.burst - left) * limit.intervalMs);
          const leftOfSent = signal.remaining - (this.stats.requests - ticket.sent);
          this.sentFloor = Math.max(this.sentFloor, now + (limit.burst - leftOfSent) * limit.intervalMs);
        } else if (left < 1) this.hold(now + 1000, "no requests left of the quota", false);
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

  private async checkHold(now: number, deadline: number | undefined): Promise<void> {
    const wait = this.holdUntil - now;
    // A hold the others may wait for too is theirs to know, whether this run waits for it or not.
    if (wait <= this.maxWaitMs) await this.share(now);
    const error = this.tooLong(this.holdReason, wait, wait, this.holdDaily, now, deadline);
    if (error) throw error;
  }

  /** The rule of core/wait.ts: the error of a wait the run may not make. */
  private tooLong(
    what: string,
    waitMs: number,
    paceMs: number,
    daily: boolean,
    now: number,
    deadline: number | undefined,
    asks?: string,
  ): QuotaError | undefined {
    return quotaGiveUp(what, waitMs, daily, { nowMs: now, deadline, maxWaitMs: this.maxWaitMs, paceMs }, asks);
  }

  private async wait(
    now: number,
    until: number,
    source: WaitEvent["source"],
    reason: string,
    signal: AbortSignal | undefined,
    onWait: ((event: WaitEvent) => void) | undefined,
  ): Promise<void> {
    const waitMs = until - now;
    // Every wait is told (--verbose says each; otherwise only a long one is said).
    if (waitMs > 0) onWait?.({ kind: "wait", source, waitMs, until, reason });
    // The key's other runs are told what the service said before this one waits long for it.
    if (waitMs >= LONG_WAIT_MS) await this.share(now);
    this.stats.waitedMs += waitMs;
    await this.sleep(waitMs, signal);
    this.slept = until;
  }

  /** Tells the key's other runs what the service said, when there is something new (before a long wait). */
  private async share(now: number): Promise<void> {
    if (this.ledger === undefined || (this.sentFloor <= this.sharedFloor && this.holdUntil <= this.sharedHold)) return;
    this.sharedFloor = this.sentFloor;
    this.sharedHold = this.holdUntil;
    await this.ledger.share(this.turnRequest(now));
  }

  private turnRequest(now: number): TurnRequest {
    const limit = this.limit ?? { intervalMs: this.adaptive.intervalMs(), burst: 1 };
    this.sharedFloor = Math.max(this.sharedFloor, this.sentFloor);
    this.sharedHold = Math.max(this.sharedHold, this.holdUntil);
    return { now, intervalMs: limit.intervalMs, burst: limit.burst, floor: this.sentFloor, hold: this.holdUntil };
  }

  private paceWhat(): string {
    if (this.limit) return this.limit.what;
    const interval = this.adaptive.intervalMs();
    return `its 429s slowed this run to 1 request every ${every(interval)}`;
  }

  private reserve(): Turn {
    this.issued += 1;
    const seq = this.issued;
    const limit = this.limit ?? { intervalMs: this.adaptive.intervalMs(), burst: 1 };
    const tolerance = Math.max(0, limit.burst - 1) * limit.intervalMs;
    const now = Math.max(this.now(), this.slept, this.capNext);
    const floor = Math.max(this.floor, this.holdUntil + tolerance);
    const { sendAt, state } = reserveSlot(this.schedule, {
      now,
      intervalMs: limit.intervalMs,
      burst: limit.burst,
      floor,
    });
    this.schedule = state;
    const gapMs = sendAt - Math.max(now, this.lastTurn);
    this.lastTurn = sendAt;
    this.capNext = sendAt + this.capMs;
    return { seq, sendAt, gapMs };
  }
}
