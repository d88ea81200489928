/**
 * A file staged beside its target and put in place later: written and closed (and synced) first, renamed
 * over the target only when the caller decides, or removed. Many can be staged at once (one per day of an
 * export) with only the ones still being written holding a descriptor.
 */
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createWriteStream, unlinkSync, type WriteStream } from "node:fs";
import { chmod, open, rename, stat, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { fileDigest, sameBytes } from "./file-digest";

export class StagedFile {
  private failure: Error | undefined;
  private done = false;

  private constructor(
    readonly path: string,
    private readonly temp: string,
    readonly stream: WriteStream,
  ) {
    stream.on("error", (error) => {
      this.failure ??= error;
    });
  }

  static async create(path: string): Promise<StagedFile> {
    const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
    const stream = createWriteStream(temp, { flags: "wx", mode: 0o666 });
    await once(stream, "open");
    return new StagedFile(path, temp, stream);
  }

  /** Everything is written: flush, sync and close the temporary file. */
  async finish(): Promise<void> {
    if (this.failure) throw this.failure;
    if (!this.stream.writableEnded) {
      const finished = once(this.stream, "close");
      this.stream.end();
      await finished;
    }
    if (this.failure) throw this.failure;
    const handle = await open(this.temp, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  /** SHA-256 (hex) of the finished file. */
  async digest(): Promise<string> {
    const found = await fileDigest(this.temp);
    if (found.kind !== "file") throw new Error(`the staged file ${this.temp} is gone`);
    return found.sha256;
  }

  /** True when the target already holds exactly the finished file's bytes. */
  sameAsTarget(): Promise<boolean> {
    return sameBytes(this.temp, this.path);
  }

  /** Puts the finished file in place, keeping the permissions of the file it replaces. */
  async commit(): Promise<void> {
    const existing = await stat(this.path).catch(() => undefined);
    if (existing) await chmod(this.temp, existing.mode & 0o777);
    await rename(this.temp, this.path);
    this.done = true;
  }

  async discard(): Promise<void> {
    if (this.done) return;
    this.done = true;
    this.stream.destroy();
    await unlink(this.temp).catch(() => undefined);
  }

  /** For a signal handler: removes the temporary file without waiting. */
  discardNow(): void {
    if (this.done) return;
    this.done = true;
    this.stream.destroy();
    try {
      unlinkSync(this.temp);
    } catch {
      // already gone
    }
  }
}
