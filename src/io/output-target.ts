/**
 * What `-o PATH` names before anything is written: nothing yet, a regular file, standard output under
 * another name, a descriptor someone opened for us, or a target no export goes into. PATH is as the user
 * typed it (every message names it so); it is looked up relative to `cwd`, the command's folder.
 */
import { constants, fstatSync, type Stats } from "node:fs";
import { access, readlink, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { errnoCode } from "./errno-words";
import { SinkError } from "./sink-stream";

/** What a path holds when it is no regular file (a named pipe, a device, a folder), in words. */
export function notAFile(found: Stats): string | undefined {
  if (found.isFile()) return undefined;
  if (found.isFIFO()) return "a named pipe (FIFO)";
  if (found.isCharacterDevice()) return "a character device";
  if (found.isBlockDevice()) return "a block device (a disk)";
  if (found.isSocket()) return "a socket";
  if (found.isDirectory()) return "a folder";
  return "not a regular file";
}

export function isOurStdout(target: Stats): boolean {
  try {
    const stdout = fstatSync(1);
    return stdout.dev === target.dev && stdout.ino === target.ino;
  } catch {
    return false; // no descriptor 1 at all
  }
}

/**
 * What is at PATH now (undefined: nothing yet); rejects with a SinkError for a target no export goes
 * into. Cheap, so a command can check it before anything else.
 */
export async function checkOutputTarget(path: string, cwd: string): Promise<Stats | undefined> {
  const existing = await stat(resolve(cwd, path)).catch((error: unknown) => {
    // Nothing there (a file on the way, ENOTDIR, is the folder check's to refuse: exit 2).
    if (errnoCode(error) === "ENOENT" || errnoCode(error) === "ENOTDIR") return undefined;
    throw SinkError.from(path, error);
  });
  if (existing?.isDirectory()) throw new SinkError(path, "is a folder", { code: "EISDIR" });
  if (existing?.isBlockDevice()) throw new SinkError(path, "is a block device (a disk), not a file to export into");
  if (existing?.isSocket() && !isOurStdout(existing))
    throw new SinkError(path, "is a socket, not a file to export into");
  return existing;
}

/** True when PATH is a named pipe, a device or a socket: a stream some program reads, not a file it opens. */
export async function isStreamTarget(path: string, cwd: string): Promise<boolean> {
  const found = await stat(resolve(cwd, path)).catch(() => undefined);
  return found !== undefined && (found.isFIFO() || found.isCharacterDevice() || found.isSocket());
}

/**
 * `/dev/stdout`, `/dev/fd/N`, `/proc/self/fd/N`: a descriptor someone opened for us (`> out.csv`); the
 * file behind it is theirs to name, so it is written through, not replaced. Follows the links one by one:
 * resolving them all would land on the file itself. `where` is absolute.
 */
export async function isOpenDescriptor(where: string): Promise<boolean> {
  let current = where;
  for (let hop = 0; hop < 8; hop += 1) {
    if (current.startsWith("/proc/") || current.startsWith("/dev/fd/")) return true;
    const link = await readlink(current).catch(() => undefined);
    if (link === undefined) return false;
    current = resolve(dirname(current), link);
  }
  return false;
}

/**
 * What replacing PATH would refuse, found without making anything (`report --dry-run`): its folder
 * missing or not accepting new files. A device, a pipe or a descriptor is written into, not replaced.
 */
export async function checkReplaceable(path: string, cwd: string): Promise<void> {
  const existing = await checkOutputTarget(path, cwd);
  if (existing && !existing.isFile()) return;
  const folder = dirname(resolve(cwd, path));
  const found = await stat(folder).catch(() => undefined);
  if (!found?.isDirectory()) throw new SinkError(path, "no such folder", { code: "ENOENT" });
  await access(folder, constants.W_OK | constants.X_OK).catch((error: unknown) => {
    throw SinkError.from(path, error);
  });
}
