/**
 * DuckDB's failures in adreport's words (targets/table/failure.ts makes the line): its own text, which
 * names the file and a documentation link, is never shown as it comes. A path refused before DuckDB opens
 * it (a device, a folder, a missing folder) is a DuckdbRefusal, said as it is.
 */
import { shellWord } from "../../core/shell-word";
import type { FailureWords } from "../table/failure";

/** What adreport itself refuses of a duckdb: path, in its words (exit 1, as for sqlite:). */
export class DuckdbRefusal extends Error {
  override readonly name = "DuckdbRefusal";
  readonly hint: string | undefined;

  constructor(reason: string, hint?: string) {
    super(reason);
    this.hint = hint;
  }
}

/** DuckDB's message after its kind (`IO Error: `, `Catalog Error: `), first line only. */
function bare(message: string): string {
  return (message.split("\n")[0] as string).replace(/^[A-Za-z ]+ Error: /, "");
}

export const duckdbWords: FailureWords = (error) => {
  if (error instanceof DuckdbRefusal) return { reason: error.message, hint: error.hint };
  const message = error instanceof Error ? error.message : String(error);
  const held = /Could not set lock on file .*Conflicting lock is held in .*\(PID (\d+)\)/.exec(message);
  if (held !== null || /Could not set lock on file/.test(message)) {
    const who = held === null ? "another process" : `another process (PID ${held[1]})`;
    return {
      reason: `${who} has the file open, and DuckDB lets one process at a time open a database file; the table was left as it was`,
      hint: "let that process finish, or close it (a duckdb shell, a notebook holding the file), then run again",
    };
  }
  if (/is not a valid DuckDB database file|not a valid DuckDB database|Corrupt database file/i.test(message)) {
    return {
      reason: "it is not a DuckDB database file (damaged, or another kind of file)",
      hint: "move that file away or choose another path: adreport creates a new database file where none is",
    };
  }
  if (/Could not read enough bytes|Corrupt|checksum/i.test(message)) {
    return {
      reason: "it is damaged (cut short or overwritten): DuckDB cannot read it",
      hint: "restore it from a backup, or move it away: adreport creates a new database file where none is",
    };
  }
  if (/database file .* was written by|Trying to read a database file with version|newer version/i.test(message)) {
    return {
      reason: "it was written by another version of DuckDB than this adreport's",
      hint: "write to a new database file, or export the table with that DuckDB (EXPORT DATABASE) and import it here",
    };
  }
  // `Cannot open file "PATH": ...`, and at a commit `Failed to commit: Could not write file "PATH.wal": ...`.
  const errno = /(?:Cannot open|Could not write|Could not read) file "[^"]*": (.+)$/m.exec(message);
  if (errno !== null) {
    const reason = (errno[1] as string).replace(/^\w/, (c) => c.toLowerCase());
    if (/no space left|quota/i.test(reason)) {
      return {
        reason: `${reason}; the table was left as it was`,
        hint: "free space where the file is (DuckDB writes the file and a .wal file beside it), then run again",
      };
    }
    return /read-only file system|permission denied/i.test(reason)
      ? { reason, hint: "DuckDB writes the file and a .wal file beside it: choose a folder this user may write" }
      : { reason };
  }
  return { reason: bare(message) };
};

/** A missing folder above the database file: the command that makes it. */
export function missingFolder(folder: string): DuckdbRefusal {
  return new DuckdbRefusal(
    "no such folder",
    `create it first: mkdir -p ${shellWord(folder.startsWith("-") ? `./${folder}` : folder)}`,
  );
}
