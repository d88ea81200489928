/** SHA-256 of a file's bytes, to tell whether a file is still what was written into it. */
import { createHash } from "node:crypto";
import { constants } from "node:fs";
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
