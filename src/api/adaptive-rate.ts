/**
 * The pace for a service that does not say its limit: AIMD. No pace until the first 429; then half the
 * rate the service was accepting (its successes in the last second), halved again by each 429 to a request sent after the last decrease (a
 * volley of 429s to requests already in flight is one signal, not eight), and raised by a little on every
 * success, so that it climbs back over a few seconds and probes the limit again.
 */
const MIN_PER_SECOND = 1 / 60;
/** Each second of successes raises the rate by this share of the rate set by the last decrease. */
const RECOVERY = 0.5;

export class AdaptiveRate {
  /** Requests per second; undefined until a 429. */
  private rate: number | undefined;
  private base = 0;
  /** Requests reserved up to the last decrease: 429s to them are of the same volley. */
  private decreasedThrough = 0;
  private readonly successes: number[] = [];

  intervalMs(): number {
    return this.rate === undefined ? 0 : 1000 / this.rate;
  }

  perSecond(): number | undefined {
    return this.rate;
  }

  succeeded(nowMs: number): void {
    this.successes.push(nowMs);
    while ((this.successes[0] ?? nowMs) < nowMs - 1000) this.successes.shift();
    if (this.rate !== undefined) this.rate += (RECOVERY * this.base) / this.rate;
  }

  /** A 429 to the request reserved as `seq`, when `issued` requests have been reserved in all. */
  throttled(seq: number, issued: number, nowMs: number): void {
    if (seq <= this.decreasedThrough) return;
    while ((this.successes[0] ?? nowMs) < nowMs - 1000) this.successes.shift();
    // Without a success in the last second there is no rate to halve: Retry-After and backoff pace alone.
    const current = this.rate ?? (this.successes.length > 0 ? this.successes.length : undefined);
    if (current === undefined) return;
    this.rate = Math.max(MIN_PER_SECOND, current / 2);
    this.base = this.rate;
    this.decreasedThrough = issued;
  }
}
