/** `--db` to a store: a postgres:// URL is PostgreSQL, anything else a SQLite file. */
import { databaseLabel, isPostgresUrl, type OperatorStore, type ServeStore } from "./backend";
import { DatabaseError, type NativeBinding, openForReading, openForWriting } from "./db/schema";
import { sqliteOperator } from "./db/sqlite-operator";
import { ReportStore } from "./db/store";

/** A postgres:// URL Node cannot read is the operator's mistake, said without the URL's password. */
function checkUrl(db: string): void {
  try {
    new URL(db);
  } catch {
    throw new DatabaseError(
      `${databaseLabel(db)} is not a URL (postgres://user@host:port/database; percent-encode special characters)`,
    );
  }
}

/** Opens the database an operator verb writes to, creating its layout when `create` is set. */
export async function openOperatorStore(
  db: string,
  options: { create: boolean; nativeBinding?: NativeBinding },
): Promise<OperatorStore> {
  // PostgreSQL's driver is loaded only for a postgres:// URL: SQLite's verbs start as fast as before.
  if (isPostgresUrl(db)) checkUrl(db);
  if (isPostgresUrl(db)) return await (await import("./pg/operator")).openPostgresOperator(db, options.create);
  return sqliteOperator(openForWriting(db, options), db);
}

export interface ServeStoreOptions {
  cacheBytes: number;
  cacheRows: number;
  /** Connections to PostgreSQL at most (SQLite has one). */
  poolSize: number;
  nowMs?: (() => number) | undefined;
  log?: ((line: string) => void) | undefined;
  nativeBinding?: NativeBinding;
}

/** Opens the database `serve` answers from, failing before anything listens when it cannot be served. */
export async function openServeStore(db: string, options: ServeStoreOptions): Promise<ServeStore> {
  if (isPostgresUrl(db)) checkUrl(db);
  if (isPostgresUrl(db)) return await (await import("./pg/store")).PostgresServeStore.open(db, options);
  return new ReportStore(db, (path) => openForReading(path, options.nativeBinding), options);
}
