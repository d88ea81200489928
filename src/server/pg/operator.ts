/** The operator verbs on PostgreSQL: each one transaction holding the write lock, and bumping data_version. */
import type pg from "pg";
import { databaseLabel, type OperatorStore } from "../backend";
import { addIps, issueKey, listKeys, removeIps, revokeKey, rotateKey } from "./keys";
import { createPool, databaseFailure, inTransaction } from "./pool";
import { BUMP_VERSION_SQL, checkSchema, createSchema, WRITE_LOCK_SQL } from "./schema";
import { writeFacts } from "./writer";

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
  const read = <T>(work: (client: pg.PoolClient) => Promise<T>) => inTransaction(pool, label, work);
  return {
    label,
    issueKey: (request) => write((c) => issueKey(c, request)),
    rotateKey: (id, now) => write((c) => rotateKey(c, id, now)),
    revokeKey: (id, now) => write((c) => revokeKey(c, id, now)),
    addIps: (id, ips) => write((c) => addIps(c, id, ips)),
    removeIps: (id, ips) => write((c) => removeIps(c, id, ips)),
    listKeys: (now) => read((c) => listKeys(c, now)),
    writeFacts: (batches) => write((c) => writeFacts(c, batches)),
    close: async () => {
      try {
        await pool.end();
      } catch (error) {
        throw databaseFailure(error, label);
      }
    },
  };
}
