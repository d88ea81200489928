/** What every operator verb of `serve` shares: its error mapping, the database it opens, and the clock. */
import { UnavailableError, UsageError } from "../../core/errors";
import { shellWord } from "../../core/shell-word";
import {
  ConflictError,
  DatabaseError,
  DatabaseUnreachableError,
  type Db,
  databaseLabel,
  isPostgresUrl,
  KeyAdminError,
  LoadError,
  type OperatorStore,
  openForWriting,
  openOperatorStore,
  RestateError,
} from "../../server";
import type { Context } from "../context";

export interface DbOptions {
  db: string;
}

/** Operator mistakes (a bad line, an unknown key id, a missing file) are bad input: exit 2. */
export async function operatorVerb<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DatabaseError) throw new UsageError(error.message, { hint: error.hint });
    if (error instanceof LoadError || error instanceof KeyAdminError || error instanceof ConflictError) {
      throw new UsageError(error.message);
    }
    // A PostgreSQL server that is down or out of reach: worth trying again, as a network failure is.
    if (error instanceof DatabaseUnreachableError) throw new UnavailableError(error.message);
    throw error;
  }
}

/**
 * Opens a SQLite database for an operator verb, runs `work`, and closes it. SQLite only: a verb that
 * should also work on PostgreSQL uses withStore.
 */
export function withDatabase<T>(
  ctx: Context,
  path: string,
  create: boolean,
  work: (db: Db) => T | Promise<T>,
): Promise<T> {
  return operatorVerb(async () => {
    const db = openForWriting(path, { create, nativeBinding: ctx.sqliteAddon() });
    try {
      return await work(db);
    } finally {
      db.close();
    }
  });
}

/** Opens the database `--db` names (a SQLite file or a postgres:// URL), runs `work`, and closes it. */
export function withStore<T>(
  ctx: Context,
  db: string,
  create: boolean,
  work: (store: OperatorStore) => Promise<T>,
): Promise<T> {
  return operatorVerb(async () => {
    const store = await openOperatorStore(db, { create, nativeBinding: ctx.sqliteAddon() });
    try {
      return await work(store);
    } catch (error) {
      if (!(error instanceof RestateError)) throw error;
      // A URL's password is never printed: the hint then names the database as its label does.
      const where = isPostgresUrl(db) ? databaseLabel(db) : db;
      const hint = error.advice === undefined ? undefined : `${error.advice} --db ${shellWord(where)}`;
      throw new UsageError(error.message, { hint });
    } finally {
      await store.close();
    }
  });
}

export function nowSeconds(ctx: Context): number {
  return Math.floor(ctx.now().getTime() / 1000);
}
