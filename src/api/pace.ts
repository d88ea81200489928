/**
 * One pace for every request of a client (every page in flight, every window of a split, both periods of
 * a comparison), and through a shared ledger for every client and process of one key. Before each request
 * `grant()` waits for its send time; `answered()` learns from each answer:
 * - the service's rate-limit fields (rate-headers.ts): a token bucket of its quota and window, its tokens
 *   set to what the service says remains less the requests sent since (in flight, not yet counted there);
 * - without them, 429s (adaptive-rate.ts); both in service-limit.ts;
 * - Retry-After on a 429 or 503, a quota the fields say is spent: nothing is sent before it;
 * - the user's cap (`rate`): requests spaced by at least its interval, whatever else allows.
 * The run's own turns are reserved ahead, in order (own-turns.ts); the key's shared schedule is asked for a
 * turn only when a request is due (key-pace.ts). Every wait follows the one rule of core/wait.ts: one the
 * run may not wait for ends it at once (QuotaError), one a person notices is told first (`onWait`); why it
 * waits, in words, is pace-reasons.ts.
 */
import type { QuotaError } from "../core/errors";
import type { PaceLedger, TurnRequest } from "../core/pace-slot";
import { type Rate, rateIntervalMs } from "../core/rate";
import { LONG_WAIT_MS } from "../core/wait";
import { KeyPace } from "./key-pace";
import { OwnTurns } from "./own-turns";
import { capReason, sharedReason } from "./pace-reasons";
import { quotaGiveUp } from "./quota";
import { readRateSignal } from "./rate-headers";
import { abortableSleep, DEFAULT_BACKOFF, retryAfterMs, type Sleep } from "./retry";
import { ServiceLimit } from "./service-limit";
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

export class Pacer {
  readonly stats: PaceStats = { requests: 0, throttled: 0, waitedMs: 0 };
  private readonly keyPace: KeyPace | undefined;
  private readonly now: () => number;
  private readonly sleep: Sleep;
  private readonly capMs: number;
  private readonly capWhat: string;
  private readonly maxWaitMs: number;
  private readonly service: ServiceLimit;
  private readonly turns: OwnTurns;
  /** Nothing is sent before this (a Retry-After, a spent quota); why, for the message. */
  private holdUntil = 0;
  private holdReason = "";
  private holdDaily = false;
  private lastSent = Number.NEGATIVE_INFINITY;
  /** The time a sleep was asked to last until: an injected sleep that returns at once still moves time on. */
  private slept = 0;

  constructor(options: PacerOptions = {}) {
    this.keyPace = options.ledger === undefined ? undefined : new KeyPace(options.ledger);
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? abortableSleep;
    this.capMs = options.cap === undefined ? 0 : rateIntervalMs(options.cap);
    this.capWhat = options.cap === undefined ? "" : capReason(options.cap);
    this.maxWaitMs = options.maxWaitMs ?? DEFAULT_BACKOFF.maxRetryAfterMs;
    this.service = new ServiceLimit(this.maxWaitMs);
    this.turns = new OwnTurns(this.capMs);
  }

  /** The pace now: requests per second, or undefined when nothing limits it. */
  perSecond(): number | undefined {
    const intervals = [this.service.bucket().intervalMs, this.capMs];
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
      const from = Math.max(this.now(), this.slept);
      const turn = this.turns.reserve(from, this.service.bucket(), this.service.floor, this.holdUntil);
      for (;;) {
        if (signal?.aborted) throw signal.reason;
        const now = Math.max(this.now(), this.slept);
        if (this.holdUntil > now) await this.checkHold(now, deadline);
        const capAt = this.lastSent + this.capMs;
        const due = Math.max(turn.sendAt, this.holdUntil, capAt);
        if (due <= now) {
          const shared = await this.keyPace?.take(this.turnRequest(now));
          if (shared === undefined || shared.sendAt <= now) {
            this.lastSent = now;
            this.stats.requests += 1;
            return { seq: turn.seq, sent: this.stats.requests };
          }
          // Another run of the key (or one that ended) used the turn: the key's pace holds this one.
          const wait = shared.sendAt - now;
          const error = this.tooLong(sharedReason(shared), wait, wait, false, now, deadline, "it holds this run for");
          if (error) throw error;
          await this.wait(now, shared.sendAt, "shared", sharedReason(shared), signal, onWait);
          continue;
        }
        // A hold set after this request's turn was reserved: its turn is reserved again, after the hold.
        if (this.holdUntil > turn.sendAt) break;
        const byHold = this.holdUntil > now;
        const byCap = !byHold && capAt >= turn.sendAt;
        const what = byHold ? this.holdReason : byCap ? this.capWhat : this.service.reason();
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
    if (signal !== undefined) {
      const counts = { issued: this.turns.issued, sent: this.stats.requests };
      this.service.read(signal, ticket, counts, now, (until, reason) => this.hold(until, reason, false));
    }
    if (status === 429 || status === 503) {
      const wait = retryAfterMs(headers["retry-after"], now);
      if (wait !== undefined) this.hold(now + wait, `the service answered ${status}`, false);
      if (status === 429) this.service.throttled(ticket.seq, this.turns.issued, now);
    } else if (status < 400) {
      this.service.succeeded(now);
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
    const told = this.keyPace?.share(this.turnRequest(now));
    if (told) await told;
  }

  /** A turn at `now` on the service's bucket, with what the service said: the key's other runs keep to it. */
  private turnRequest(now: number): TurnRequest {
    const { intervalMs, burst } = this.service.bucket();
    return { now, intervalMs, burst, floor: this.service.sentFloor, hold: this.holdUntil };
  }
}
