/**
 * Why the pace holds a request back, in words: the reason a wait's message and its WaitEvent give (`its
 * RateLimit fields allow 1 request every 25 s`).
 */

import { formatInterval, formatWait } from "../core/duration";
import type { SharedTurn } from "../core/pace-slot";
import type { Rate } from "../core/rate";

function requests(n: number): string {
  return n === 1 ? "1 request" : `${n} requests`;
}

/** `the rate setting allows 10 requests a second`: the user's cap. */
export function capReason(cap: Rate): string {
  return `the rate setting allows ${requests(cap.n)} a ${cap.per === "s" ? "second" : "minute"}`;
}

/** The bucket a policy announces: `its RateLimit fields allow 100 requests every 60 s`. */
export function policyReason(quota: number, windowMs: number): string {
  return `its RateLimit fields allow ${requests(quota)} every ${formatWait(windowMs)}`;
}

/** What is left without a policy, spread over the rest of the window: `... say 3 requests left for 20 s`. */
export function leftReason(left: number, resetMs: number): string {
  return `its RateLimit fields say ${requests(Math.max(0, left))} left for ${formatWait(resetMs)}`;
}

/** The pace the service's 429s set, when it says no limit. */
export function throttledReason(intervalMs: number): string {
  return `its 429s slowed this run to 1 request every ${formatInterval(intervalMs)}`;
}

/** `the runs of this key on this host keep one pace (1 request every 25 s)`: the shared schedule, in words. */
export function sharedReason(turn: SharedTurn): string {
  if (turn.heldBy === "hold") return "another run of this key on this host was told by the service to wait";
  const pace = turn.intervalMs > 0 ? ` (1 request every ${formatInterval(turn.intervalMs)})` : "";
  return `the runs of this key on this host keep one pace${pace}`;
}
