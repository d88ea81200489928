/** SHA-256 of a file's bytes, to tell whether a file is still what was written into it. */
import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { open, stat } from "node:fs/promises";
import { errnoCode } from "./errno-words";

export type FileDigest = { kind: "missing" } | { kind: "not a file" } | { kind: "file"; size: number; sha256: string };

const CHUNK = 1 << 16;

/** Never waits on a named pipe (opened non-blocking, then refused as not a file). */
export async function fileDigest(path: string): Promise<FileDigest> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return { kind: "missing" };
    throw error;
  }
  try {
    const found = await handle.stat();
    if (!found.isFile()) return { kind: "not a file" };
    const hash = createHash("sha256");
    const buffer = Buffer.allocUnsafe(CHUNK);
    let size = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK, null);
      if (bytesRead === 0) break;
      size += bytesRead;
      hash.update(buffer.subarray(0, bytesRead));
    }
    return { kind: "file", size, sha256: hash.digest("hex") };
  } finally {
    await handle.close();
  }
}

/** True when the two files hold the same bytes (both regular files). */
export async function sameBytes(a: string, b: string): Promise<boolean> {
  const [sa, sb] = await Promise.all([stat(a).catch(() => undefined), stat(b).catch(() => undefined)]);
  if (!sa?.isFile() || !sb?.isFile() || sa.size !== sb.size) return false;
  const [x, y] = await Promise.all([fileDigest(a), fileDigest(b)]);
  return x.kind === "file" && y.kind === "file" && x.size === y.size && x.sha256 === y.sha256;
}

/**
 * The SHA-256 and size of a small regular file, read at once without waiting (thousands of day files in one
 * `verify`: a promise and a thread-pool hop per read cost more than the reading); undefined for anything
 * else (missing, not a regular file, larger than `limit`, unreadable), which the caller reads the long way.
 */
export function smallFileDigestSync(path: string, limit: number): { size: number; sha256: string } | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const found = fstatSync(fd);
    if (!found.isFile() || found.size > limit) return undefined;
    const buffer = Buffer.allocUnsafe(found.size + 1);
    let bytes = 0;
    for (;;) {
      const read = readSync(fd, buffer, bytes, buffer.length - bytes, bytes);
      if (read === 0) break;
      bytes += read;
      // Grown since fstat: the long way reads it as it is now.
      if (bytes === buffer.length) return undefined;
    }
    return { size: bytes, sha256: createHash("sha256").update(buffer.subarray(0, bytes)).digest("hex") };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
