/**
 * A limit on a whole command's time (`--max-time`): a signal that aborts, once the time has passed, with an
 * error that says how far the work got. Every wait of the client (a request, a body, a backoff) listens to
 * it, so the command ends within moments of the limit whatever the service does. A timer and a controller
 * rather than AbortSignal.timeout: the abort's reason is this message, worked out when the limit passes.
 */
import { formatDuration } from "../../core/duration";
import { UnavailableError } from "../../core/errors";
import { timerDelay } from "../../core/wait";

interface Deadline {
  /** Undefined when there is no limit. */
  signal: AbortSignal | undefined;
  clear(): void;
}

/** `progress()` describes how far the work got, for the message: `12 of 40 pages, 11,000 of 40,000 rows`. */
export function deadline(seconds: number | undefined, progress: () => string): Deadline {
  if (seconds === undefined) return { signal: undefined, clear() {} };
  const controller = new AbortController();
  const timer = setTimeout(
    () => {
      controller.abort(
        new UnavailableError(`gave up after ${formatDuration(seconds)} (max-time): ${progress()}`, {
          hint: "raise --max-time (or the max-time setting); --verbose shows each request and how long it took",
        }),
      );
    },
    timerDelay(seconds * 1000),
  );
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}
