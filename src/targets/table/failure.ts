/**
 * A database target's failure as one line naming the table and the database, exit 1: PostgreSQL's errors in
 * the words `serve --db` uses too (core/postgres-failure.ts), SQLite's as the driver says them.
 */
import { OutputError } from "../../core/errors";
import { explainPostgresFailure } from "../../core/postgres-failure";

export function targetFailure(
  kind: "sqlite" | "postgres",
  doing: "write" | "read",
  what: string,
  error: unknown,
): OutputError {
  if (kind === "postgres") {
    const { reason, hint } = explainPostgresFailure(error);
    return new OutputError(`cannot ${doing} ${what}: ${reason}`, { hint, cause: error });
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new OutputError(`cannot ${doing} ${what}: ${reason.split("\n")[0]}`, { cause: error });
}
