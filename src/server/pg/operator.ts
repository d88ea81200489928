/**
 * The operator verbs on PostgreSQL: the key rules (store/keys.ts) and the facts, each in one transaction
 * holding the write lock and bumping data_version.
 */
import type pg from "pg";
import { databaseLabel } from "../../core/database-label";
import { DatabaseError, DatabaseUnreachableError } from "../model/errors";
import { numbered, POSTGRES_DIALECT, type SqlParams } from "../sql/dialect";
import type { SqlRunner } from "../store/keys";
import { type OperatorBackend, operatorStore } from "../store/operator";
import { runAsync, type Steps } from "../store/steps";
import type { OperatorStore, UpgradeResult } from "../store/types";
import { createPool, databaseFailure, inTransaction } from "./pool";
import { BUMP_VERSION_SQL, checkSchema, createSchema, upgradeSchema, WRITE_LOCK_SQL } from "./schema";
import { writeFacts } from "./writer";

function runner(client: pg.ClientBase): SqlRunner {
  return {
    dialect: POSTGRES_DIALECT,
    all: async <R>(sql: string, params: SqlParams = {}): Promise<R[]> =>
      (await client.query(numbered(sql, params))).rows as R[],
  };
}

/** Connects, creates the layout when `create` is set, and checks it is an adreport database. */
export async function openPostgresOperator(url: string, create: boolean): Promise<OperatorStore> {
  const label = databaseLabel(url);
  const pool = createPool(url, { max: 2 });
  try {
    await inTransaction(pool, label, async (client) => {
      if (create) await createSchema(client, label);
      else await checkSchema(client, label);
    });
  } catch (error) {
    await pool.end();
    throw error;
  }
  const write = <T>(work: (client: pg.PoolClient) => Promise<T>) =>
    inTransaction(pool, label, async (client) => {
      await client.query(WRITE_LOCK_SQL);
      const result = await work(client);
      await client.query(BUMP_VERSION_SQL);
      return result;
    });
  const backend: OperatorBackend = {
    label,
    write: <T>(steps: (db: SqlRunner) => Steps<T>) => write((client) => runAsync(steps(runner(client)))),
    read: <T>(steps: (db: SqlRunner) => Steps<T>) =>
      inTransaction(pool, label, (client) => runAsync(steps(runner(client)))),
    writeFacts: (batches) => write((client) => writeFacts(client, batches)),
    close: async () => {
      try {
        await pool.end();
      } catch (error) {
        throw databaseFailure(error, label);
      }
    },
  };
  return operatorStore(backend);
}

/** `serve upgrade`: the layout brought to this version in one transaction (pg/schema.ts). */
export async function upgradePostgres(url: string): Promise<UpgradeResult> {
  const label = databaseLabel(url);
  const pool = createPool(url, { max: 1 });
  try {
    return await inTransaction(pool, label, (client) => upgradeSchema(client, label));
  } catch (error) {
    if (error instanceof DatabaseError || error instanceof DatabaseUnreachableError) throw error;
    // A layout changed by hand under the version it records (a column already there, say): rolled back.
    throw new DatabaseError(`cannot upgrade ${label}: ${(error as Error).message}; nothing of it was kept`);
  } finally {
    await pool.end().catch(() => undefined);
  }
}
