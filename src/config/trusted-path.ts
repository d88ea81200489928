/**
 * Whether the config folder and file can be trusted, in the manner of ssh's StrictModes: the file says
 * where the API key is sent (`base-url`) and holds keys, so it must be one that only its owner can
 * change. The folder and the file must belong to the user running adreport and be writable by nobody
 * else; the file is never reached through a symbolic link. The folders above the config folder may
 * also belong to root, and may be writable by others only when their sticky bit keeps others from
 * renaming what is inside (/tmp), or by the user's own primary group (the per-user groups of Debian and
 * Ubuntu); like ssh, the walk up stops at the home folder. Anything else is refused before a byte of the
 * file is used, with the path and the fix.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, realpathSync, type Stats } from "node:fs";
import { dirname, resolve } from "node:path";
import { UsageError } from "../core/errors";

/** The user running adreport; undefined where there are no POSIX owners (Windows). */
export interface FileUser {
  uid: number;
  gid: number;
}

const GROUP_WRITE = 0o020;
const OTHER_WRITE = 0o002;
const STICKY = 0o1000;
// O_NONBLOCK: a FIFO named config.json must not hang the open; fstat then refuses it.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

function octal(stats: Stats): string {
  return (stats.mode & 0o7777).toString(8).padStart(4, "0");
}

function code(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

const ELSEWHERE = "or set ADREPORT_CONFIG_DIR to a folder only you can write";

/** The folder or file must be the user's own and writable by nobody else. */
function checkOwnPrivate(stats: Stats, what: string, shown: string, real: string, user: FileUser): void {
  if (stats.uid !== user.uid) {
    throw new UsageError(
      `refusing the config ${what} ${shown}: it belongs to uid ${stats.uid}, not to you (uid ${user.uid}), so its owner could change where your key is sent`,
      { hint: `if it is yours: chown ${user.uid} ${real}; ${ELSEWHERE}` },
    );
  }
  if ((stats.mode & (GROUP_WRITE | OTHER_WRITE)) !== 0) {
    throw new UsageError(
      `refusing the config ${what} ${shown}: it is mode ${octal(stats)}, writable by others, who could change where your key is sent`,
      { hint: `chmod go-w ${real}; ${ELSEWHERE}` },
    );
  }
}

/** A folder above the config folder: others must not be able to rename or replace what is inside it. */
function checkAncestor(path: string, user: FileUser): void {
  const stats = lstatSync(path);
  if (stats.uid !== user.uid && stats.uid !== 0) {
    throw new UsageError(
      `refusing the config folder: ${path}, a folder above it, belongs to uid ${stats.uid}, who could replace the config folder`,
      { hint: `keep the config folder under folders owned by you or root: ${ELSEWHERE}` },
    );
  }
  const sticky = (stats.mode & STICKY) !== 0;
  const otherWritable = (stats.mode & OTHER_WRITE) !== 0;
  const groupWritable = (stats.mode & GROUP_WRITE) !== 0 && stats.gid !== user.gid;
  if (!sticky && (otherWritable || groupWritable)) {
    throw new UsageError(
      `refusing the config folder: ${path}, a folder above it, is mode ${octal(stats)}, so others could replace the config folder`,
      { hint: `chmod go-w ${path}; ${ELSEWHERE}` },
    );
  }
}

function realHome(home: string | undefined): string | undefined {
  if (home === undefined || home === "") return undefined;
  try {
    return realpathSync(home);
  } catch {
    return undefined;
  }
}

/** Checks `from` and every folder above it, up to the home folder (included) or the root. */
function checkAncestors(from: string, user: FileUser, home: string | undefined): void {
  const stop = realHome(home);
  let current = from;
  for (;;) {
    checkAncestor(current, user);
    const parent = dirname(current);
    if (current === stop || parent === current) return;
    current = parent;
  }
}

/**
 * The config folder's real path once it is trusted, or undefined when it does not exist. A folder
 * reached through a link is judged where it really is, and used there from then on. A relative `dir`
 * is the command's folder's (`cwd`); messages name it as given.
 */
export function trustedFolder(
  dir: string,
  user: FileUser | undefined,
  home: string | undefined,
  cwd: string,
): string | undefined {
  let real: string;
  try {
    real = realpathSync(resolve(cwd, dir));
  } catch (error) {
    if (code(error) === "ENOENT") return undefined;
    throw error;
  }
  const stats = lstatSync(real);
  const shown = real === dir ? dir : `${dir} (which is ${real})`;
  if (!stats.isDirectory()) throw new UsageError(`the config folder ${shown} is not a folder`);
  if (user) {
    checkOwnPrivate(stats, "folder", shown, real, user);
    const parent = dirname(real);
    if (parent !== real && real !== realHome(home)) checkAncestors(parent, user, home);
  }
  return real;
}

/** Before adreport creates the config folder: the nearest folder that exists must be trusted as a parent. */
export function checkBeforeCreating(
  dir: string,
  user: FileUser | undefined,
  home: string | undefined,
  cwd: string,
): void {
  if (!user) return;
  let existing = dirname(resolve(cwd, dir));
  for (;;) {
    try {
      existing = realpathSync(existing);
      break;
    } catch (error) {
      if (code(error) !== "ENOENT" || dirname(existing) === existing) throw error;
      existing = dirname(existing);
    }
  }
  checkAncestors(existing, user, home);
}

function refuseLink(path: string): UsageError {
  return new UsageError(`refusing the config file ${path}: it is a symbolic link, which adreport does not follow`, {
    hint: "replace the link with a regular file of your own (mode 600), or remove it and add your keys again",
  });
}

function checkFile(stats: Stats, path: string, user: FileUser | undefined): void {
  if (stats.isSymbolicLink()) throw refuseLink(path);
  if (!stats.isFile()) throw new UsageError(`refusing the config file ${path}: it is not a regular file`);
  if (user) checkOwnPrivate(stats, "file", path, path, user);
}

/**
 * The file's text and mode, read through a descriptor opened without following a link and checked
 * with fstat, so the bytes read are those of the file checked; undefined when there is no file.
 */
export function readTrustedFile(path: string, user: FileUser | undefined): { text: string; mode: number } | undefined {
  let fd: number;
  try {
    fd = openSync(path, READ_FLAGS);
  } catch (error) {
    if (code(error) === "ENOENT") return undefined;
    if (code(error) === "ELOOP") throw refuseLink(path);
    throw error;
  }
  try {
    const stats = fstatSync(fd);
    checkFile(stats, path, user);
    return { text: readFileSync(fd, "utf8"), mode: stats.mode };
  } finally {
    closeSync(fd);
  }
}

/** Before the file is replaced: what is there now (if anything) must be the user's own regular file. */
export function checkReplaceable(path: string, user: FileUser | undefined): void {
  let stats: Stats;
  try {
    stats = lstatSync(path);
  } catch (error) {
    if (code(error) === "ENOENT") return;
    throw error;
  }
  checkFile(stats, path, user);
}
