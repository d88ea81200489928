/**
 * adreport_jobs in a SQLite file (targets/table/jobs.ts), on a connection of its own. A job's lock is a
 * small SQLite file beside the database (`ads.db-adreport-<id>.lock`, as SQLite keeps its -wal beside it),
 * on which the run holds a write transaction open: the kernel's lock, which goes with the process, whichever
 * host name it had (a container killed -9 on a shared volume leaves nothing to remove by hand). The holder's
 * words (pid, host, since) are a row committed there before, read by a run refused. Every run writing the
 * database, from any config folder or container of the host, meets it. The database is opened only to
 * write: a dry run or `state list` of a file that is not there creates none.
 */
import { existsSync, statSync } from "node:fs";
import Database from "better-sqlite3";
import { holderText, type LockResult, thisProcess } from "../../state/job-lock";
import { holderWords, JOBS_TABLE, type JobColumnUse, type JobSql, sqlJobTable } from "../table/jobs";
import type { FoundColumn } from "../table/shape";

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
      return { ...holdLock(file, addon), path: file };
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

const BUSY_HINT =
  "this run did nothing; the lock goes when that run ends, or when its process dies (killed, or its container gone)";

/**
 * The lock of jobLockPath: a write transaction held open on that file (WAL: a run refused still reads who
 * holds it). The holder's row is committed first, then the lock taken again: a run that came in between
 * holds it, and this one is refused. The file stays (removing it would let two runs lock two files).
 */
function holdLock(file: string, addon: object | undefined): LockResult & { hint?: string } {
  const held = new Database(file, { timeout: 0, ...(addon ? { nativeBinding: addon as unknown as string } : {}) });
  const refused = (): LockResult & { hint: string } => {
    const row = (() => {
      try {
        return held.prepare("SELECT held_by, held_since FROM holder").get() as
          | { held_by: string; held_since: string }
          | undefined;
      } catch {
        return undefined;
      }
    })();
    held.close();
    return {
      ok: false,
      holder: row ? holderWords({ by: row.held_by, since: row.held_since }) : "a run that is starting",
      hint: BUSY_HINT,
    };
  };
  try {
    held.pragma("journal_mode = WAL");
    held.exec("CREATE TABLE IF NOT EXISTS holder (held_by TEXT NOT NULL, held_since TEXT NOT NULL)");
    held.exec("BEGIN IMMEDIATE");
  } catch (error) {
    if (isBusy(error)) return refused();
    held.close();
    throw error;
  }
  held.exec("DELETE FROM holder");
  held
    .prepare("INSERT INTO holder (held_by, held_since) VALUES (?, ?)")
    .run(holderText(thisProcess()), new Date().toISOString());
  held.exec("COMMIT");
  try {
    held.exec("BEGIN IMMEDIATE");
  } catch (error) {
    if (isBusy(error)) return refused();
    held.close();
    throw error;
  }
  let released = false;
  return {
    ok: true,
    release: async () => {
      if (released) return;
      released = true;
      try {
        held.exec("ROLLBACK");
        held.exec("DELETE FROM holder");
      } catch {
        // Let go all the same: closing ends the transaction.
      }
      held.close();
    },
  };
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === "SQLITE_BUSY" || code === "SQLITE_LOCKED";
}
