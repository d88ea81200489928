/**
 * `serve --rate-limit N/s|N/min`: a token bucket per key. A bucket holds at most N tokens and gains N a
 * window (1 s or 60 s), evenly; a new key starts full. Each answered request of a valid key takes one
 * token; with less than one left the request is refused until the next token is in.
 *
 * Token amounts are kept as whole numbers of "units" (one token = the window in milliseconds, one
 * millisecond adds N units) so that what the headers say is exact, never a rounding of a float.
 */
import { LRUCache } from "lru-cache";

export interface RateLimit {
  /** Requests a window; also the bucket's size. */
  quota: number;
  windowSeconds: 1 | 60;
}

/** The one line `--rate-limit` refuses a value with. */
export const RATE_LIMIT_RULE = "expected N/s or N/min, e.g. 20/s";
const MAX_QUOTA = 1_000_000;

/** `20/s`, `600/min` as a RateLimit; undefined for anything else. */
export function parseRateLimit(text: string): RateLimit | undefined {
  const match = /^([1-9]\d{0,6})\/(s|min)$/.exec(text.trim());
  if (!match) return undefined;
  const quota = Number(match[1]);
  if (quota > MAX_QUOTA) return undefined;
  return { quota, windowSeconds: match[2] === "s" ? 1 : 60 };
}

/** What one request met: whether it may go on, the whole tokens left, and seconds until the next one. */
export interface BucketState {
  allowed: boolean;
  remaining: number;
  /** Whole seconds (rounded up) until one more token is in; 0 when the bucket is full. */
  nextTokenSeconds: number;
}

interface Bucket {
  units: number;
  at: number;
}

/** Keys whose buckets are kept at most; the least recently used goes first (it is the fullest). */
export const DEFAULT_MAX_KEYS = 10_000;

export class RateLimiter {
  private readonly buckets: LRUCache<number, Bucket>;
  private readonly unitsPerToken: number;
  private readonly capacity: number;

  constructor(
    readonly limit: RateLimit,
    /** A monotonic clock in milliseconds. */
    private readonly nowMs: () => number,
    maxKeys = DEFAULT_MAX_KEYS,
  ) {
    this.buckets = new LRUCache({ max: maxKeys });
    this.unitsPerToken = limit.windowSeconds * 1000;
    this.capacity = limit.quota * this.unitsPerToken;
  }

  /** Buckets held now (for tests of the memory bound). */
  get size(): number {
    return this.buckets.size;
  }

  /** Takes one token of `key`'s bucket when there is one. */
  take(key: number): BucketState {
    const now = this.nowMs();
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { units: this.capacity, at: now };
      this.buckets.set(key, bucket);
    }
    // Whole milliseconds only, the fraction carried to the next call; a full window refills any bucket.
    const elapsed = Math.min(Math.max(0, Math.floor(now - bucket.at)), this.unitsPerToken);
    bucket.at = elapsed === this.unitsPerToken ? now : bucket.at + elapsed;
    bucket.units = Math.min(this.capacity, bucket.units + elapsed * this.limit.quota);
    const allowed = bucket.units >= this.unitsPerToken;
    if (allowed) bucket.units -= this.unitsPerToken;
    return { allowed, ...this.state(bucket.units) };
  }

  private state(units: number): Omit<BucketState, "allowed"> {
    const remaining = Math.floor(units / this.unitsPerToken);
    if (units >= this.capacity) return { remaining, nextTokenSeconds: 0 };
    const missingUnits = (remaining + 1) * this.unitsPerToken - units;
    const ms = Math.ceil(missingUnits / this.limit.quota);
    return { remaining, nextTokenSeconds: Math.ceil(ms / 1000) };
  }
}
