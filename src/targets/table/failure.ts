/**
 * A database target's failure as one line naming the table and the database, exit 1, in the words its kind
 * gives the driver's error (PostgreSQL's as `serve --db` says them, core/postgres-failure.ts; SQLite's as
 * the driver says them).
 */
import { OutputError } from "../../core/errors";

/** A driver's error in words: the reason, and what to do where that is known. */
export type FailureWords = (error: unknown) => { reason: string; hint?: string | undefined };

/** The first line of the driver's own message. */
export const driverWords: FailureWords = (error) => {
  const reason = error instanceof Error ? error.message : String(error);
  return { reason: reason.split("\n")[0] as string };
};

export function targetFailure(words: FailureWords, doing: "write" | "read", what: string, error: unknown): OutputError {
  const { reason, hint } = words(error);
  return new OutputError(
    `cannot ${doing} ${what}: ${reason}`,
    hint === undefined ? { cause: error } : { hint, cause: error },
  );
}
