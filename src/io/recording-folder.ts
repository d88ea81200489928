/**
 * The folder of a recording (`report --record DIR`): made for its owner only (0700), its files 0600, each
 * written whole under a temporary name and renamed (replace-file.ts), so a reader (or a replay) never sees
 * half a file.
 * Synchronous on purpose: exchanges finish in any order and the index must follow them one at a time.
 */
import { mkdirSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { replaceFileSyncUnsynced } from "./replace-file";

/** Why a folder cannot take a recording, before any request is sent. */
export class RecordingFolderError extends Error {
  override readonly name = "RecordingFolderError";
}

export interface RecordingFolder {
  readonly path: string;
  write(name: string, text: string): void;
}

/**
 * Creates `dir` (and its parents) 0700, or takes an empty folder as it is (its mode is its owner's choice;
 * the files are 0600 either way). A folder with files in it is refused: a new recording must not mix with
 * an old one's exchanges.
 */
export function openRecordingFolder(dir: string, cwd: string): RecordingFolder {
  const path = resolve(cwd, dir);
  const created = mkdirSync(path, { recursive: true, mode: 0o700 }) !== undefined;
  if (!created) refuseTaken(dir, path);
  return {
    path,
    write(name, text) {
      replaceFileSyncUnsynced(join(path, name), text, 0o600);
    },
  };
}

/** What openRecordingFolder would refuse, found without making anything (`report --dry-run`). */
export function checkRecordingFolder(dir: string, cwd: string): void {
  const path = resolve(cwd, dir);
  if (statSync(path, { throwIfNoEntry: false }) !== undefined) refuseTaken(dir, path);
}

function refuseTaken(dir: string, path: string): void {
  if (!statSync(path).isDirectory()) throw new RecordingFolderError(`${dir} is not a folder`);
  if (readdirSync(path).length > 0) {
    throw new RecordingFolderError(`${dir} is not empty; record into a new folder`);
  }
}
