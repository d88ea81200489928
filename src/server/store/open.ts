/** `--db` to a store: a postgres:// URL is PostgreSQL, anything else a SQLite file. */
import { databaseLabel, isPostgresUrl } from "../../core/database-label";
import { DatabaseError } from "../model/errors";
import { type NativeBinding, openForReading, openForWriting } from "../sqlite/open";
import { sqliteOperator } from "../sqlite/operator";
import { SqliteServeBackend } from "../sqlite/serve-backend";
import { openServeStore as openCachedStore } from "./serve-store";
import type { OperatorStore, ServeStore, UpgradeResult } from "./types";

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
  if (isPostgresUrl(db)) return await (await import("../pg/operator")).openPostgresOperator(db, options.create);
  return sqliteOperator(openForWriting(db, options), db);
}

/** `serve upgrade`: brings the database `--db` names to this adreport's layout (sql/schema-version.ts). */
export async function upgradeDatabase(db: string, options: { nativeBinding?: NativeBinding }): Promise<UpgradeResult> {
  if (isPostgresUrl(db)) checkUrl(db);
  if (isPostgresUrl(db)) return await (await import("../pg/operator")).upgradePostgres(db);
  return (await import("../sqlite/upgrade")).upgradeSqlite(db, options.nativeBinding);
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
  if (isPostgresUrl(db)) {
    const { PostgresServeBackend } = await import("../pg/serve-backend");
    return await openCachedStore(options, (forget) => PostgresServeBackend.open(db, options, forget));
  }
  return await openCachedStore(
    options,
    (forget) => new SqliteServeBackend(db, (path) => openForReading(path, options.nativeBinding), options, forget),
  );
}
