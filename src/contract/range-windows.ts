/**
 * A range longer than the service's 90 days (docs/service.md §8) as consecutive windows of at most 90 x 24 h:
 * what the client asks for one window at a time (api/split.ts), and what a plan says it will ask for.
 */
import { formatDateTime } from "../core/calendar";
import { MAX_RANGE_SECONDS } from "./fields";
import { ceilSeconds, type Instant, parseInstant } from "./time";

/** The windows of [from, to]; a single window when the range fits. */
export function splitRange(from: string, to: string): Array<{ from: string; to: string }> {
  const start = parseInstant(from, "from") as Instant;
  const end = parseInstant(to, "to") as Instant;
  const windows: Array<{ from: string; to: string }> = [];
  for (let s = ceilSeconds(start); s <= end.sec; s += MAX_RANGE_SECONDS) {
    windows.push({ from: formatDateTime(s), to: formatDateTime(Math.min(s + MAX_RANGE_SECONDS - 1, end.sec)) });
  }
  return windows;
}
