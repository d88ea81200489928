/**
 * A database target's failure as one line naming the table and the database, exit 1, in the words its kind
 * gives the driver's error (PostgreSQL's as `serve --db` says them, core/postgres-failure.ts; SQLite's as
 * the driver says them).
 */
import { OutputError, UnavailableError } from "../../core/errors";

/** A driver's error in words: the reason, what to do where that is known, and whether the server went away. */
export type FailureWords = (error: unknown) => { reason: string; hint?: string | undefined; unreachable?: boolean };

/** The first line of the driver's own message. */
export const driverWords: FailureWords = (error) => {
  const reason = error instanceof Error ? error.message : String(error);
  return { reason: reason.split("\n")[0] as string };
};

export function targetFailure(
  words: FailureWords,
  doing: "write" | "read",
  what: string,
  error: unknown,
  reached = false,
): OutputError | UnavailableError {
  const { reason, hint, unreachable } = words(error);
  // A server that went away while a run wrote to it (stopped, restarted, cut off): the table is as its last
  // commit left it, the next run continues; exit 5 as for a service that went away. One never reached is
  // the operator's to fix (exit 1, as before).
  if (doing === "write" && reached && unreachable === true) {
    return new UnavailableError(`lost ${what}: ${reason}`, {
      hint: "the table was left as the last window committed; the next run continues",
      cause: error,
    });
  }
  return new OutputError(
    `cannot ${doing} ${what}: ${reason}`,
    hint === undefined ? { cause: error } : { hint, cause: error },
  );
}
