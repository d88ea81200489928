/**
 * A wait before a request, told before it starts: the command says it on stderr when it is long enough for
 * a person to notice (core/wait.ts LONG_WAIT_MS), whatever the progress display; with --verbose, each one.
 */
export interface WaitEvent {
  kind: "wait";
  /** Who holds the request back: the service (a Retry-After, its RateLimit fields), the pace it set, the
   * pace the key keeps with its other runs on the host, or a retry's backoff. */
  source: "service" | "pace" | "shared" | "retry";
  waitMs: number;
  /** When the wait ends (epoch ms). */
  until: number;
  /** Why, in words: `the service allows 1 request every 25 s`. */
  reason: string;
}
