/**
 * A try that failed before its whole answer was in, as the retry budget takes it: the reason in words (the
 * timeout of the phase it was in, or what network-errors.ts reads from the error), and the error to raise:
 * a ConnectionError when trying again cannot help, else a Retriable that becomes one on the last try.
 */
import { ConnectionError } from "./errors";
import { type NetworkFailure, networkFailure } from "./network-errors";
import { Retriable } from "./retry";
import type { ProxyChoice } from "./route";

/** What the try was waiting for: the status and headers, or the rest of the body. */
export type TryPhase = "headers" | "body";

export interface TryContext {
  phase: TryPhase;
  /** The try's own timer aborted it (else `error` says what failed). */
  timedOut: boolean;
  timeoutMs: number;
  base: URL;
  proxy: ProxyChoice | undefined;
}

function failureOf(error: unknown, context: TryContext): NetworkFailure {
  if (!context.timedOut) return networkFailure(error, context.base);
  const seconds = context.timeoutMs / 1000;
  return {
    reason:
      context.phase === "headers"
        ? `no answer within ${seconds} s`
        : `the whole answer did not come within ${seconds} s`,
    final: false,
    hint: undefined,
    remedy: undefined,
  };
}

export function failedTry(error: unknown, context: TryContext): { reason: string; error: ConnectionError | Retriable } {
  const { phase, base } = context;
  const failure = failureOf(error, context);
  const message = `${phase === "headers" ? "cannot reach" : "lost the answer from"} ${base.host}: ${failure.reason}`;
  const facts = {
    remedy: failure.remedy,
    hint: failure.hint,
    // Behind a proxy, a connection that fails is first of all the proxy's.
    proxy: phase === "headers" && !failure.final ? context.proxy : undefined,
  };
  if (failure.final) return { reason: failure.reason, error: new ConnectionError(message, facts) };
  return {
    reason: failure.reason,
    error: new Retriable(message, undefined, (text) => new ConnectionError(text, facts)),
  };
}
