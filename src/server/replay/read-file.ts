/**
 * One file of a recording, read only when it is a regular file of at most RECORDING_FILE_MAX_BYTES: a
 * link is not followed (it could lead to /dev/zero, read without end), and a named pipe must not hang the
 * open (O_NONBLOCK) before fstat refuses it. Checking the open descriptor, not the path, leaves no moment
 * in which the file could be swapped.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";
import { RECORDING_FILE_MAX_BYTES } from "../../contract";

const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
const CHUNK = 1 << 20;
const LIMIT_MB = RECORDING_FILE_MAX_BYTES / (1 << 20);

/** Why a file of a recording cannot be read, in words; `path` is named by the caller. */
export class UnreadableFile extends Error {
  override readonly name = "UnreadableFile";
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

function kind(stats: Stats): string {
  if (stats.isDirectory()) return "a folder";
  if (stats.isFIFO()) return "a named pipe";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  if (stats.isSocket()) return "a socket";
  return "not a regular file";
}

const tooLarge = (size: string) =>
  new UnreadableFile(`${size}, larger than the ${LIMIT_MB} MB serve replay reads of one file`);

function openOrExplain(path: string): number {
  try {
    return openSync(path, READ_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP") throw new UnreadableFile("a symbolic link, which serve replay does not follow", code);
    if (code === "ENXIO") throw new UnreadableFile("a socket or device, not a regular file", code);
    if (code === "EACCES") throw new UnreadableFile("permission denied", code);
    if (code === "ENOENT") throw new UnreadableFile("missing", code);
    if (code === "ENOTDIR") throw new UnreadableFile("a part of the path is not a folder", code);
    throw error;
  }
}

/** The file's bytes as UTF-8 text. */
export function readRecordingFile(path: string): string {
  const fd = openOrExplain(path);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new UnreadableFile(`${kind(stats)}, not a regular file`);
    if (stats.size > RECORDING_FILE_MAX_BYTES) throw tooLarge(`${Math.ceil(stats.size / (1 << 20))} MB`);
    // Read to the end, not to the size seen: the file may still grow, and is refused if it passes the bound.
    const chunks: Buffer[] = [];
    let total = 0;
    let next = stats.size + 1;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(next, RECORDING_FILE_MAX_BYTES + 1 - total));
      next = CHUNK;
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      chunks.push(read === chunk.length ? chunk : chunk.subarray(0, read));
      total += read;
      if (total > RECORDING_FILE_MAX_BYTES) throw tooLarge("grew while read");
    }
    return Buffer.concat(chunks, total).toString("utf8");
  } finally {
    closeSync(fd);
  }
}
