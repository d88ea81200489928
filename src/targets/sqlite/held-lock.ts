/**
 * A lock the kernel holds for this process: a write transaction kept open on a small SQLite file (its
 * locks are the system's, released when the process ends however it ends). Unlike a pid file, a lock left
 * by a process killed -9 under another host name (a container gone, on a shared volume) is no lock: the
 * next run takes it. Who holds it (pid, host, since) is a row committed first, read by a run refused: the
 * transaction held writes nothing, so its lock is SQLite's RESERVED, which lets readers in (a rollback
 * journal, not WAL, whose shared memory no network volume shares). The file stays: removing it would let
 * two runs lock two files.
 */
import { readFile } from "node:fs/promises";
import { printable } from "../../core/printable";
import { shellWord } from "../../core/shell-word";
import { holderText, type LockResult, thisProcess } from "../../state/job-lock";
import { holderWords } from "../table/jobs";

type Held = import("better-sqlite3").Database;

/** `holder`: as the other locks say it (`4242 on "pod-a" since 2026-11-29 06:00:02 UTC`); `hint`: what to do. */
export type HeldLockResult = LockResult & { hint?: string };

const BUSY_HINT =
  "this run did nothing; the lock goes when that run ends, or when its process dies (killed, or its container gone)";

/** Takes the lock at `file` (`addon`: better-sqlite3's native binding where the build gives one), or says who holds it. */
export async function holdLock(file: string, addon?: object): Promise<HeldLockResult> {
  const { default: Database } = await import("better-sqlite3");
  const held: Held = new Database(file, {
    timeout: 0,
    ...(addon ? { nativeBinding: addon as unknown as string } : {}),
  });
  const refused = (): HeldLockResult => {
    let row: { held_by: string; held_since: string } | undefined;
    try {
      row = held.prepare("SELECT held_by, held_since FROM holder").get() as typeof row;
    } catch {
      row = undefined;
    }
    held.close();
    return {
      ok: false,
      // The row is the file's, which anyone writing the folder may have written: no control character printed.
      holder: row
        ? printable(
            holderWords({
              by: String(row.held_by),
              since: Number.isNaN(Date.parse(String(row.held_since))) ? null : String(row.held_since),
            }),
          )
        : "unknown yet (the other run is starting)",
      hint: BUSY_HINT,
    };
  };
  const begin = (): boolean => {
    try {
      held.exec("BEGIN IMMEDIATE");
      return true;
    } catch (error) {
      if (codeOf(error) !== "SQLITE_BUSY") throw error;
      return false;
    }
  };
  try {
    held.exec("CREATE TABLE IF NOT EXISTS holder (held_by TEXT NOT NULL, held_since TEXT NOT NULL)");
    if (!begin()) return refused();
    held.exec("DELETE FROM holder");
    held
      .prepare("INSERT INTO holder (held_by, held_since) VALUES (?, ?)")
      .run(holderText(thisProcess()), new Date().toISOString());
    // The commit waits for a refused run still reading the row (a moment), rather than refusing this one.
    held.pragma("busy_timeout = 5000");
    held.exec("COMMIT");
    held.pragma("busy_timeout = 0");
    // Held from here on; a run that came in between the commit and this holds it instead.
    if (!begin()) return refused();
  } catch (error) {
    held.close();
    if (codeOf(error) === "SQLITE_BUSY") return refused();
    if (codeOf(error) === "SQLITE_NOTADB") return formerLock(file);
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
        // Let go all the same: closing the connection ends its transaction.
      }
      held.close();
    },
  };
}

/** A lock file an earlier build wrote (pid and host as text): its words, and how to let go of it once its run is gone. */
async function formerLock(file: string): Promise<HeldLockResult> {
  const [pid, host] = (await readFile(file, "utf8").catch(() => "")).split("\n");
  return {
    ok: false,
    holder: `${pid?.trim() || "?"}${host?.trim() ? ` on ${JSON.stringify(host.trim())}` : ""}`,
    hint: `an earlier adreport's lock file: once that run is gone, remove it: rm ${shellWord(file)}`,
  };
}

function codeOf(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}
