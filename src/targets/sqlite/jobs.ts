/**
 * adreport_jobs in a SQLite file (targets/table/jobs.ts), on a connection of its own. A job's lock is a
 * small SQLite file beside the database (`ads.db-adreport-<id>.lock`, as SQLite keeps its -wal beside it),
 * held by the kernel for the run (held-lock.ts): it goes with the process, whichever host name it had
 * (a container killed -9 on a shared volume leaves nothing to remove by hand). Every run writing the
 * database, from any config folder or container of the host, meets it. The database is opened only to
 * write: a dry run or `state list` of a file that is not there creates none.
 */
import { existsSync, statSync } from "node:fs";
import Database from "better-sqlite3";
import { JOBS_TABLE, type JobColumnUse, type JobSql, sqlJobTable } from "../table/jobs";
import type { FoundColumn } from "../table/shape";
import { holdLock } from "./held-lock";

const TYPES: Record<JobColumnUse, string> = { text: "TEXT", json: "TEXT", integer: "INTEGER", time: "TEXT" };

export function jobLockPath(database: string, id: string): string {
  return `${database}-adreport-${id}.lock`;
}

export function sqliteJobTable(path: string, shown: string, addon: object | undefined) {
  let db: Database.Database | undefined;
  const open = (make: boolean): Database.Database | undefined => {
    if (db === undefined && (make || existsSync(path))) {
      // A device or a folder is no database file: SQLite would leave its journal beside it (/dev/full-journal).
      const found = statSync(path, { throwIfNoEntry: false });
      if (found !== undefined && !found.isFile()) throw new Error("not a regular file (a database file is needed)");
      db = new Database(path, { timeout: 10_000, ...(addon ? { nativeBinding: addon as unknown as string } : {}) });
      db.pragma("journal_mode = WAL");
    }
    return db;
  };
  const sql: JobSql = {
    where: shown,
    typeOf: (use) => TYPES[use],
    placeholder: () => "?",
    async columns() {
      const found = open(false);
      if (found === undefined) return undefined;
      const exists = found.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(JOBS_TABLE);
      if (exists === undefined) return undefined;
      return found.prepare("SELECT name, type FROM pragma_table_info(?) ORDER BY cid").all(JOBS_TABLE) as FoundColumn[];
    },
    async query(text, params) {
      const statement = (open(true) as Database.Database).prepare(text);
      if (statement.reader) return statement.all(...params) as Array<Record<string, unknown>>;
      statement.run(...params);
      return [];
    },
    json: (value) => (typeof value === "string" ? JSON.parse(value) : value),
    async lock(id) {
      // No row of adreport_jobs is written to lock (a write waits for another run's transaction on the database).
      const file = jobLockPath(path, id);
      return { ...(await holdLock(file, addon)), path: file };
    },
    // SQLite has no rights to grant: a file that cannot be written fails as the data's would.
    createRefused: () => undefined,
    useRefused: () => undefined,
    async close() {
      db?.close();
      db = undefined;
    },
  };
  return sqlJobTable(sql);
}
