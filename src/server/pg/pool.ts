/**
 * Connections to PostgreSQL: a pg Pool whose 64-bit integers arrive as numbers (ids and hours are within
 * 2^53 by the load format's rules; report sums are built into JSON text by the database and never pass
 * through here), and pg's errors in the operator's terms, with the URL's password never shown.
 */
import pg from "pg";
import { explainPostgresFailure } from "../../core/postgres-failure";
import { DatabaseError, DatabaseUnreachableError } from "../model/errors";

const INT8_OID = 20;

const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === INT8_OID
      ? (text: string) => Number(text)
      : pg.types.getTypeParser(oid, format ?? "text")) as typeof pg.types.getTypeParser,
};

/** A pg error as one of ours, naming the database by its label; anything else is passed on as it is. */
export function databaseFailure(error: unknown, label: string): unknown {
  if (error instanceof DatabaseError || error instanceof DatabaseUnreachableError) return error;
  const failure = explainPostgresFailure(error);
  if (failure.unreachable) return new DatabaseUnreachableError(`cannot reach ${label}: ${failure.reason}`);
  if (failure.setup) return new DatabaseError(`cannot use ${label}: ${failure.reason}`, { hint: failure.hint });
  return error;
}

export interface PoolOptions {
  /** Connections at most (default 10). */
  max?: number | undefined;
  /** A statement running longer is cancelled (default: none). */
  statementTimeoutMs?: number | undefined;
  /** Time to connect before giving up (default 10 s). */
  connectTimeoutMs?: number | undefined;
}

export function createPool(url: string, options: PoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    types,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    ...(options.statementTimeoutMs === undefined ? {} : { statement_timeout: options.statementTimeoutMs }),
    idleTimeoutMillis: 30_000,
    application_name: "adreport",
  });
  // An idle connection the server drops must not crash the process; the next query reconnects.
  pool.on("error", () => undefined);
  return pool;
}

/** Runs `work` in one transaction on one connection of the pool; rolled back if it throws. */
export async function inTransaction<T>(pool: pg.Pool, label: string, work: (client: pg.PoolClient) => Promise<T>) {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    const failure = databaseFailure(error, label);
    if (failure !== error) throw failure;
    // Whatever else stops a connection being set up (TLS refused or required, a certificate file the URL
    // names) is the URL's or the server's setup: the operator's to fix, not an unexpected error.
    throw new DatabaseError(`cannot use ${label}: ${(error as Error | null)?.message ?? String(error)}`);
  }
  let broken = false;
  // Between statements (while a load reads its file, say) the connection is idle and out of the pool: a
  // server dropping it then raises an error with nobody listening. The next statement fails with it instead.
  const dropped = () => {
    broken = true;
  };
  client.on("error", dropped);
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    try {
      if (!broken) await client.query("ROLLBACK");
    } catch {
      broken = true;
    }
    const failure = databaseFailure(error, label);
    // The server dropped the connection: the transaction is gone with it, nothing of it was kept.
    if (broken && !(failure instanceof DatabaseError)) {
      throw new DatabaseUnreachableError(`lost the connection to ${label}; nothing of this change was kept`);
    }
    throw failure;
  } finally {
    client.off("error", dropped);
    client.release(broken);
  }
}
