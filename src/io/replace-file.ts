/**
 * The one way adreport replaces a file: a temporary file beside the target (same folder, so the rename
 * cannot cross file systems), written and synced, renamed over the target, then the folder synced so the
 * rename itself survives a power cut. A reader sees the old content or the new, never half of either.
 * Temporary names are `.<name>.<pid>.<8 hex>.tmp`: leftovers.ts finds a killed run's by that shape.
 */
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createWriteStream, renameSync, rmSync, unlinkSync, type WriteStream, writeFileSync } from "node:fs";
import * as fsp from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { errnoCode } from "./errno-words";

/** The calls a replacement makes, so a test can watch their order (that the folder is synced last). */
export interface ReplaceFs {
  open: typeof fsp.open;
  rename: typeof fsp.rename;
  chmod: typeof fsp.chmod;
  stat: typeof fsp.stat;
  unlink: typeof fsp.unlink;
}

export const nodeReplaceFs: ReplaceFs = {
  open: fsp.open,
  rename: fsp.rename,
  chmod: fsp.chmod,
  stat: fsp.stat,
  unlink: fsp.unlink,
};

export function tempPathBeside(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
}

/** A new temporary file to stream into (mode 0666 less the umask, as a shell's `>` makes it). */
export async function openTempStream(temp: string): Promise<WriteStream> {
  const stream = createWriteStream(temp, { flags: "wx", mode: 0o666 });
  await once(stream, "open"); // rejects with the stream's error if it cannot be opened
  return stream;
}

/** Flushes a written file's bytes to the disk. */
export async function syncFile(path: string, fs: ReplaceFs = nodeReplaceFs): Promise<void> {
  const handle = await fs.open(path, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Errors of systems that cannot open or sync a folder (Windows, some network and FUSE file systems, a
 * folder the user may write to but not read): the rename is done and nothing more can be asked of them.
 */
const FOLDER_SYNC_UNSUPPORTED = new Set(["EISDIR", "EPERM", "EACCES", "EINVAL", "ENOTSUP", "EOPNOTSUPP", "EBADF"]);

/** Flushes a folder's entries (a rename into it) to the disk. */
export async function syncFolder(folder: string, fs: ReplaceFs = nodeReplaceFs): Promise<void> {
  let handle: fsp.FileHandle;
  try {
    handle = await fs.open(folder, "r");
  } catch (error) {
    if (FOLDER_SYNC_UNSUPPORTED.has(errnoCode(error) ?? "")) return;
    throw error;
  }
  try {
    await handle.sync();
  } catch (error) {
    if (!FOLDER_SYNC_UNSUPPORTED.has(errnoCode(error) ?? "")) throw error;
  } finally {
    await handle.close();
  }
}

/**
 * Renames a finished (written and synced) temporary file over `path` and syncs the folder: the commit.
 * `keepMode`: a file replaced keeps its permissions (a cron export readable only by its owner stays so).
 */
export async function putInPlace(
  temp: string,
  path: string,
  options: { keepMode: boolean },
  fs: ReplaceFs = nodeReplaceFs,
): Promise<void> {
  if (options.keepMode) {
    const existing = await fs.stat(path).catch(() => undefined);
    if (existing) await fs.chmod(temp, existing.mode & 0o777);
  }
  await fs.rename(temp, path);
  await syncFolder(dirname(path), fs);
}

export async function removeTemp(temp: string, fs: ReplaceFs = nodeReplaceFs): Promise<void> {
  await fs.unlink(temp).catch(() => undefined);
}

/** For a signal handler: removes a temporary file without waiting. */
export function removeTempNow(temp: string): void {
  try {
    unlinkSync(temp);
  } catch {
    // already gone
  }
}

/** Replaces `path` with `text` in a new file of this mode (not the old file's): the whole commit at once. */
export async function replaceFileWith(
  path: string,
  text: string,
  mode: number,
  fs: ReplaceFs = nodeReplaceFs,
): Promise<void> {
  const temp = tempPathBeside(path);
  try {
    const handle = await fs.open(temp, "wx", mode);
    try {
      await handle.writeFile(text, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    await putInPlace(temp, path, { keepMode: false }, fs);
  } catch (error) {
    await removeTemp(temp, fs);
    throw error;
  }
}

/**
 * The same without waiting and without syncing, for files that are written one after another in a hot
 * loop and are worth nothing after a power cut (a recording's exchanges): whole or absent, never half.
 */
export function replaceFileSyncUnsynced(path: string, text: string, mode: number): void {
  const temp = tempPathBeside(path);
  try {
    writeFileSync(temp, text, { mode, flag: "wx" });
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
