/**
 * The one schedule requests to a service are sent by (a GCRA, the token bucket as a single "theoretical
 * arrival time"): each reservation gets a send time and moves the schedule on by one interval. `burst`
 * requests may go at once after a quiet spell; `floor` pushes the schedule forward (a Retry-After, a
 * quota the service says is spent). The state is a single number, so processes can share it in a file.
 */
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

/** Hands out send times from one schedule; shared by the requests of one client, or of several processes. */
export interface PaceLedger {
  reserve(request: PaceRequest): Promise<number>;
}

/** The send time for `request` and the schedule after it. */
export function reserveSlot(state: PaceState, request: PaceRequest): { sendAt: number; state: PaceState } {
  const tat = Math.max(state.tat, request.floor);
  const tolerance = Math.max(0, request.burst - 1) * request.intervalMs;
  const sendAt = Math.max(request.now, tat - tolerance);
  return { sendAt, state: { tat: Math.max(tat, sendAt) + request.intervalMs } };
}

/** The schedule of one process. */
export class MemoryPaceLedger implements PaceLedger {
  private state: PaceState = { tat: 0 };

  reserve(request: PaceRequest): Promise<number> {
    const { sendAt, state } = reserveSlot(this.state, request);
    this.state = state;
    return Promise.resolve(sendAt);
  }
}
