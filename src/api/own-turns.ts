/**
 * The run's own schedule: each request's turn reserved ahead, in order, on the bucket the service keeps
 * (core/pace-slot.ts), never before a hold and never closer to the turn before than the user's cap allows.
 */
import { type PaceState, reserveSlot } from "../core/pace-slot";
import type { Bucket } from "./service-limit";

/** A request's turn in the run's own schedule; `gapMs`: how much of its wait the pace adds to the turn before. */
export interface Turn {
  seq: number;
  sendAt: number;
  gapMs: number;
}

export class OwnTurns {
  /** Turns reserved so far (the last one's `seq`). */
  issued = 0;
  private schedule: PaceState = { tat: 0 };
  private capNext = 0;
  /** The send time of the last turn reserved: the next one's wait beyond it is the pace's. */
  private lastTurn = Number.NEGATIVE_INFINITY;

  /** `capMs`: the user's cap as an interval (0: none). */
  constructor(private readonly capMs: number) {}

  /** The next turn from `now`, on `bucket`, not before `floor` nor before `holdUntil` (less the burst). */
  reserve(now: number, bucket: Bucket, floor: number, holdUntil: number): Turn {
    this.issued += 1;
    const seq = this.issued;
    const tolerance = Math.max(0, bucket.burst - 1) * bucket.intervalMs;
    const from = Math.max(now, this.capNext);
    const { sendAt, state } = reserveSlot(this.schedule, {
      now: from,
      intervalMs: bucket.intervalMs,
      burst: bucket.burst,
      floor: Math.max(floor, holdUntil + tolerance),
    });
    this.schedule = state;
    const gapMs = sendAt - Math.max(from, this.lastTurn);
    this.lastTurn = sendAt;
    this.capNext = sendAt + this.capMs;
    return { seq, sendAt, gapMs };
  }
}
