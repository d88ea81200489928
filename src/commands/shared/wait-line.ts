/**
 * A long wait before a request, said on stderr before it starts (`adreport: waiting 25 s (until 06:35:12
 * UTC): its RateLimit fields allow 1 request every 25 s`), whatever the progress display: a run held back
 * for minutes must never look hung. One line per cause: the same reason again, or the same end (a retry
 * and the pace waiting for one Retry-After), is not said twice. The reason may quote the service.
 */
import type { WaitEvent } from "../../api";
import { formatWait } from "../../core/duration";
import type { LineTag } from "../../core/log-codes";
import { printable } from "../../core/printable";
import { LONG_WAIT_MS } from "../../core/wait";

/** What a wait is, for a JSON log record (core/log-codes.ts). */
export function waitTag(event: WaitEvent): LineTag {
  const until = new Date(event.until).toISOString();
  return {
    code: "wait",
    fields: { source: event.source, wait_ms: Math.round(event.waitMs), until, reason: event.reason },
  };
}

export function waitLine(event: WaitEvent): string {
  const until = new Date(event.until).toISOString().slice(11, 19);
  // A short wait (said with --verbose) to the tenth of a second, under one in ms: `waiting 1 s` for 40 ms
  // would mislead.
  const wait =
    event.waitMs < 1000
      ? `${Math.ceil(event.waitMs)} ms`
      : event.waitMs < LONG_WAIT_MS
        ? `${(event.waitMs / 1000).toFixed(1)} s`
        : formatWait(event.waitMs);
  return `adreport: waiting ${wait} (until ${until} UTC): ${printable(event.reason)}\n`;
}

/** The line for a long `event`, or undefined when it is short or one for the same cause was said already. */
export function waitLines(): (event: WaitEvent) => string | undefined {
  const said = new Set<string>();
  let lastUntil = Number.NEGATIVE_INFINITY;
  return (event) => {
    if (event.waitMs < LONG_WAIT_MS) return undefined;
    if (said.has(event.reason) || Math.abs(event.until - lastUntil) < 1000) return undefined;
    said.add(event.reason);
    lastUntil = event.until;
    return waitLine(event);
  };
}
