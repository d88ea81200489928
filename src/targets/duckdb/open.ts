/**
 * A DuckDB database file opened for a run (read-write, created when missing) or for verify (read-only).
 * DuckDB lets one process at a time open a file to write: another process's lock is waited for up to 10 s,
 * as SQLite's busy timeout waits, then the run fails (exit 1, the file named; targets/duckdb/failure.ts).
 */
import { open, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { type DuckdbConnection, type DuckdbInstance, duckdbDriver } from "./driver";
import { DuckdbRefusal, missingFolder } from "./failure";

export const LOCK_WAIT_MS = 10_000;
const LOCK_POLL_MS = 200;

export interface OpenDatabase {
  instance: DuckdbInstance;
  connection: DuckdbConnection;
  close(): void;
}

/** DuckDB's files say DUCK at byte 8; SQLite's begin with their own words (DuckDB would look for its reader). */
async function checkMagic(path: string, size: number): Promise<void> {
  if (size === 0) return;
  const file = await open(path, "r");
  let head: Buffer;
  try {
    head = Buffer.alloc(16);
    await file.read(head, 0, 16, 0);
  } finally {
    await file.close();
  }
  if (head.toString("latin1") === "SQLite format 3\u0000") {
    throw new DuckdbRefusal(
      "it is a SQLite database, not a DuckDB one",
      "for a SQLite file use -o sqlite:PATH; else choose another path",
    );
  }
  if (size < 12 || head.toString("latin1", 8, 12) !== "DUCK") {
    throw new DuckdbRefusal(
      "it is not a DuckDB database file (damaged, or another kind of file)",
      "move that file away or choose another path: adreport creates a new database file where none is",
    );
  }
}

/**
 * `path` absolute, `given` as the user wrote it (for the folder's hint). A device, a FIFO or a folder is no
 * database file (DuckDB would block on a FIFO, or leave a .wal beside /dev/null).
 */
export async function checkDatabasePath(path: string, given: string): Promise<"file" | "none"> {
  // DuckDB reads a ? as the start of a query: its .wal for what?/ads.duckdb is what.wal?/ads.duckdb, which
  // fails at the commit, after every request (in a file's name it lands beside it under another name).
  if (path.includes("?")) {
    throw new DuckdbRefusal(
      "DuckDB cannot keep a database whose path has a ? in it (its .wal file would go elsewhere)",
      "choose a path without ?",
    );
  }
  const found = await stat(path).catch((error: NodeJS.ErrnoException) => error.code ?? "unknown");
  if (typeof found !== "string") {
    if (!found.isFile()) throw new DuckdbRefusal("not a regular file (a database file is needed)");
    await checkMagic(path, found.size);
    if (found.size === 0) {
      throw new DuckdbRefusal(
        "it is an empty file, not a DuckDB database",
        "remove it: adreport creates the database file where none is",
      );
    }
    return "file";
  }
  if (found !== "ENOENT") return "none";
  const folder = await stat(dirname(path)).catch(() => undefined);
  if (folder === undefined) throw missingFolder(dirname(given));
  if (!folder.isDirectory()) throw new DuckdbRefusal(`${dirname(given)} is not a folder`);
  return "none";
}

export async function openDatabase(path: string, mode: "write" | "read"): Promise<OpenDatabase> {
  const { DuckDBInstance } = await duckdbDriver();
  const options: Record<string, string> = mode === "read" ? { access_mode: "READ_ONLY" } : {};
  // A run's memory stays flat whatever the report's size: DuckDB writes a big transaction's full row groups
  // to the file and keeps at most this much in its buffers (spilling to PATH.tmp beyond it): 16 MB peaks
  // 30 MB lower than 64 MB did (bench/duckdb-alone.mjs, 1M rows). One thread, as one connection appends
  // (each more thread is an allocator arena more). bench/duckdb.ts measures it.
  options.memory_limit = "16MB";
  options.threads = "1";
  // No extension is ever fetched from the network while a cron job runs.
  options.autoinstall_known_extensions = "false";
  options.autoload_known_extensions = "false";
  const until = Date.now() + LOCK_WAIT_MS;
  let instance: DuckdbInstance;
  for (;;) {
    try {
      instance = await DuckDBInstance.create(path, options);
      break;
    } catch (error) {
      const locked = error instanceof Error && /Could not set lock on file/.test(error.message);
      if (!locked || Date.now() >= until) throw error;
      await sleep(LOCK_POLL_MS);
    }
  }
  try {
    const connection = await instance.connect();
    return {
      instance,
      connection,
      close() {
        connection.closeSync();
        instance.closeSync();
      },
    };
  } catch (error) {
    instance.closeSync();
    throw error;
  }
}
