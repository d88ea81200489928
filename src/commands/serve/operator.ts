/** What every operator verb of `serve` shares: its error mapping, the database it opens, and the clock. */
import { UsageError } from "../../core/errors";
import { ConflictError, DatabaseError, type Db, KeyAdminError, LoadError, openForWriting } from "../../server";
import type { Context } from "../context";

export interface DbOptions {
  db: string;
}

/** Operator mistakes (a bad line, an unknown key id, a missing file) are bad input: exit 2. */
export async function operatorVerb<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (
      error instanceof LoadError ||
      error instanceof KeyAdminError ||
      error instanceof DatabaseError ||
      error instanceof ConflictError
    ) {
      throw new UsageError(error.message);
    }
    throw error;
  }
}

/** Opens the database for an operator verb, runs `work`, and closes it. */
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

export function nowSeconds(ctx: Context): number {
  return Math.floor(ctx.now().getTime() / 1000);
}
