/**
 * The operator verbs on a SQLite database: the key rules (store/keys.ts) run at once, each in one
 * transaction, and facts through writer.ts. The key verbs are also exported as plain functions of an open
 * database, for tests and tools that hold one.
 */
import { ConflictError } from "../model/errors";
import { SQLITE_DIALECT, type SqlParams } from "../sql/dialect";
import type { IssuedKey, IssueRequest, KeyListing } from "../store/key-rules";
import * as keys from "../store/keys";
import { type OperatorBackend, operatorStore } from "../store/operator";
import { runSync, type Steps } from "../store/steps";
import type { FactBatches, NumberedLine, OperatorStore, WriteResult } from "../store/types";
import type { Db } from "./open";
import { FactWriter } from "./writer";

function runner(db: Db): keys.SqlRunner {
  return {
    dialect: SQLITE_DIALECT,
    all: <R>(sql: string, params?: SqlParams): R[] => {
      const statement = db.prepare(sql);
      const args = params === undefined ? [] : [params];
      if (statement.reader) return statement.all(...args) as R[];
      statement.run(...args);
      return [];
    },
  };
}

/** Runs a rule in one transaction of the open database. */
function inTransaction<T>(db: Db, steps: (db: keys.SqlRunner) => Steps<T>): T {
  return db.transaction(() => runSync(steps(runner(db))))();
}

export const issueKey = (db: Db, request: IssueRequest): IssuedKey =>
  inTransaction(db, (r) => keys.issueKey(r, request));
export const rotateKey = (db: Db, id: number, now: number): IssuedKey =>
  inTransaction(db, (r) => keys.rotateKey(r, id, now));
export const revokeKey = (db: Db, id: number, now: number): void =>
  inTransaction(db, (r) => keys.revokeKey(r, id, now));
export const addIps = (db: Db, id: number, ips: readonly string[]): string[] =>
  inTransaction(db, (r) => keys.addIps(r, id, ips));
export const removeIps = (db: Db, id: number, ips: readonly string[]): string[] =>
  inTransaction(db, (r) => keys.removeIps(r, id, ips));
export const listKeys = (db: Db, now: number): KeyListing[] => inTransaction(db, (r) => keys.listKeys(r, now));

async function writeFacts(db: Db, batches: FactBatches): Promise<WriteResult> {
  const writer = new FactWriter(db);
  const result: WriteResult = { adHours: 0, keywordHours: 0 };
  const write = ({ line, at }: NumberedLine) => {
    try {
      if (line.kind === "ad") {
        writer.writeAdHour(line.fact);
        result.adHours += 1;
      } else {
        writer.writeKeywordHour(line.fact);
        result.keywordHours += 1;
      }
    } catch (error) {
      if (error instanceof ConflictError) error.at = at;
      throw error;
    }
  };
  db.exec("BEGIN IMMEDIATE");
  try {
    for await (const batch of batches) for (const entry of batch) write(entry);
    writer.finish();
    db.exec("COMMIT");
  } catch (error) {
    if (db.inTransaction) db.exec("ROLLBACK");
    throw error;
  }
  return result;
}

/** Wraps an open SQLite database; `close()` closes it. */
export function sqliteOperator(db: Db, label: string): OperatorStore {
  const backend: OperatorBackend = {
    label,
    // BEGIN IMMEDIATE: a second writer waits for the first (the busy timeout) instead of failing as a
    // deferred transaction does when both read first and then both want to write ("database is locked").
    write: async (steps) => db.transaction(() => runSync(steps(runner(db)))).immediate(),
    read: async (steps) => inTransaction(db, steps),
    writeFacts: (batches) => writeFacts(db, batches),
    close: async () => {
      db.close();
    },
  };
  return operatorStore(backend);
}
