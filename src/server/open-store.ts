/** `--db` to a store: a postgres:// URL is PostgreSQL, anything else a SQLite file. */
import { isPostgresUrl, type OperatorStore, type ServeStore } from "./backend";
import { type NativeBinding, openForReading, openForWriting } from "./db/schema";
import { sqliteOperator } from "./db/sqlite-operator";
import { ReportStore } from "./db/store";
import { openPostgresOperator } from "./pg/operator";
import { PostgresServeStore } from "./pg/store";

/** Opens the database an operator verb writes to, creating its layout when `create` is set. */
export async function openOperatorStore(
  db: string,
  options: { create: boolean; nativeBinding?: NativeBinding },
): Promise<OperatorStore> {
  if (isPostgresUrl(db)) return await openPostgresOperator(db, options.create);
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
  if (isPostgresUrl(db)) return await PostgresServeStore.open(db, options);
  return new ReportStore(db, (path) => openForReading(path, options.nativeBinding), options);
}
