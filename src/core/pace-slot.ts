/**
 * The schedule requests to a service are sent by (a GCRA, the token bucket as a single "theoretical
 * arrival time"): each request moves the schedule on by one interval; `burst` requests may go at once
 * after a quiet spell; `floor` pushes the schedule forward (what the service says remains).
 *
 * A run keeps its own schedule (`reserveSlot`: its requests' turns in order, reserved ahead), and the runs
 * of one key share another (`takeTurn`, kept by a ledger): a turn of the shared schedule is taken only at
 * the moment a request is sent, never reserved ahead, so a run that ends (done, failed, stopped, killed)
 * leaves in it only the requests it sent. What the shared state holds is bounded by the pace that made it
 * (`boundState`): a schedule further ahead than that pace could have put it holds no one.
 */
import { MAX_WAIT_MS } from "./wait";

export interface PaceRequest {
  /** The earliest the caller could send (epoch ms). */
  now: number;
  /** The least time between requests at the pace wanted; 0 when there is no limit known. */
  intervalMs: number;
  /** How many requests may go at once after a quiet spell (1: evenly spaced). */
  burst: number;
  /** The schedule is at least this (epoch ms), whatever it was. */
  floor: number;
}

export interface PaceState {
  /** When the next request would be due if no burst were allowed (epoch ms). */
  tat: number;
}

/** The send time for `request` in a run's own schedule, and the schedule after it. */
export function reserveSlot(state: PaceState, request: PaceRequest): { sendAt: number; state: PaceState } {
  const tat = Math.max(state.tat, request.floor);
  const tolerance = Math.max(0, request.burst - 1) * request.intervalMs;
  const sendAt = Math.max(request.now, tat - tolerance);
  return { sendAt, state: { tat: Math.max(tat, sendAt) + request.intervalMs } };
}

/** A request to the shared schedule: a turn at `now`, and what the service said (shared with the others). */
export interface TurnRequest extends PaceRequest {
  /** Nothing is sent before this (epoch ms; a Retry-After the service gave). */
  hold: number;
}

/** The schedule the runs of one key share, with the pace that made it. */
export interface SharedPace {
  tat: number;
  intervalMs: number;
  burst: number;
  /** Nothing is sent before this (epoch ms): a Retry-After one of the runs was given. */
  hold: number;
}

export const EMPTY_PACE: SharedPace = { tat: 0, intervalMs: 0, burst: 1, hold: 0 };

/** The most requests at once a bucket is believed to allow. */
const MOST_BURST = 1_000_000;

/**
 * The shared state as far as the pace that made it allows, at `now`: a schedule at most `burst + 1`
 * intervals ahead, a hold at most the longest wait any run accepts. Anything else (a pace no run keeps, a
 * number that is not one, a record of an older version without its pace) holds no one.
 */
export function boundState(state: SharedPace, now: number): SharedPace {
  const { intervalMs, burst } = state;
  const paced =
    Number.isFinite(intervalMs) &&
    intervalMs > 0 &&
    intervalMs <= MAX_WAIT_MS &&
    Number.isInteger(burst) &&
    burst >= 1 &&
    burst <= MOST_BURST;
  const pace = paced ? { intervalMs, burst } : { intervalMs: 0, burst: 1 };
  const furthest = now + (pace.burst + 1) * pace.intervalMs;
  const tat = Number.isFinite(state.tat) ? Math.min(state.tat, furthest) : 0;
  const hold = Number.isFinite(state.hold) && state.hold <= now + MAX_WAIT_MS ? state.hold : 0;
  return { tat, hold, ...pace };
}

/** What holds a request back in the shared schedule. */
export interface SharedTurn {
  /** When the request may go: `now` when it takes its turn now. */
  sendAt: number;
  /** Why it may not go now: a hold the service gave one of the runs, or the pace they keep. */
  heldBy: "hold" | "pace";
  /** The pace the shared schedule keeps (0 when none). */
  intervalMs: number;
  burst: number;
}

/**
 * A turn of the shared schedule at `request.now` (`take`): taken when the schedule allows it, else the
 * time it will. `take` false only raises the schedule to what the request says of the service. The state
 * after is undefined when nothing changed (nothing to write).
 */
export function takeTurn(
  stored: SharedPace,
  request: TurnRequest,
  take: boolean,
): { turn: SharedTurn; state: SharedPace | undefined } {
  // The pace the schedule is kept by: the caller's when it knows one, else the one that made it.
  const known = request.intervalMs > 0;
  const pace = known
    ? { intervalMs: request.intervalMs, burst: Math.max(1, request.burst) }
    : { intervalMs: stored.intervalMs, burst: stored.burst };
  const hold = Math.max(stored.hold, request.hold);
  const tat = Math.max(stored.tat, known ? request.floor : 0);
  const tolerance = Math.max(0, pace.burst - 1) * pace.intervalMs;
  const free = Math.max(tat - tolerance, hold);
  const sendAt = Math.max(request.now, free);
  const turn: SharedTurn = { sendAt, heldBy: hold >= tat - tolerance ? "hold" : "pace", ...pace };
  // A request without a pace of its own does not move the schedule: it only keeps the one there is.
  const taken = take && sendAt <= request.now && known;
  const next = { tat: taken ? Math.max(tat, sendAt) + pace.intervalMs : tat, hold, ...pace };
  const changed =
    next.tat !== stored.tat ||
    next.hold !== stored.hold ||
    next.intervalMs !== stored.intervalMs ||
    next.burst !== stored.burst;
  return { turn, state: changed ? next : undefined };
}

/** The schedule shared by the runs of one key: in one process (tests), or in a file (state/pace-ledger.ts). */
export interface PaceLedger {
  /** Takes a turn at `request.now` if the shared schedule allows, else says when it will. */
  take(request: TurnRequest): Promise<SharedTurn>;
  /** Tells the others what the service said (its floor, a hold), without taking a turn. */
  share(request: TurnRequest): Promise<void>;
}

/** A shared schedule held in memory: runs in one process. */
export class MemoryPaceLedger implements PaceLedger {
  private state: SharedPace = EMPTY_PACE;

  take(request: TurnRequest): Promise<SharedTurn> {
    return Promise.resolve(this.apply(request, true));
  }

  async share(request: TurnRequest): Promise<void> {
    this.apply(request, false);
  }

  private apply(request: TurnRequest, take: boolean): SharedTurn {
    const { turn, state } = takeTurn(boundState(this.state, request.now), request, take);
    if (state) this.state = state;
    return turn;
  }
}
