/**
 * Failed authentications counted per caller address. Past `limit` failures within a minute, the address
 * is answered 429 for a minute before its key is even looked at, so guessing keys costs a minute per
 * `limit` guesses; callers at other addresses are not affected.
 */
import { LRUCache } from "lru-cache";

const WINDOW_SECONDS = 60;
/** Addresses remembered at most: enough for any real set of callers, bounded against a flood of sources. */
const MAX_ADDRESSES = 10_000;

interface Tally {
  windowStart: number;
  failures: number;
  blockedUntil: number;
}

export class AuthFailureThrottle {
  private readonly tallies = new LRUCache<string, Tally>({ max: MAX_ADDRESSES });

  /** @param limit failures a minute from one address before it waits; 0 turns the throttle off. */
  constructor(
    readonly limit: number,
    private readonly nowSeconds: () => number,
  ) {}

  /** Whole seconds this address must wait before its next attempt, or 0 when it may go on. */
  retryAfter(address: string): number {
    if (this.limit === 0) return 0;
    const tally = this.tallies.get(address);
    const now = this.nowSeconds();
    if (!tally || tally.blockedUntil <= now) return 0;
    return Math.max(1, Math.ceil(tally.blockedUntil - now));
  }

  recordFailure(address: string): void {
    if (this.limit === 0) return;
    const now = this.nowSeconds();
    let tally = this.tallies.get(address);
    if (!tally || now - tally.windowStart >= WINDOW_SECONDS) {
      tally = { windowStart: now, failures: 0, blockedUntil: 0 };
      this.tallies.set(address, tally);
    }
    tally.failures += 1;
    if (tally.failures >= this.limit) {
      tally.blockedUntil = now + WINDOW_SECONDS;
      // The next minute counts afresh once the wait is over.
      tally.windowStart = tally.blockedUntil;
      tally.failures = 0;
    }
  }
}
