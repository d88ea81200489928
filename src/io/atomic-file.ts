/**
 * A file written atomically: a temporary file beside the target, renamed over it on commit. On abort,
 * or if the process is stopped, the old file is untouched and the temporary file is removed.
 */

import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createWriteStream, unlinkSync, type WriteStream } from "node:fs";
import { chmod, open, rename, stat, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

export class AtomicFile {
  /** A write that failed (a full disk, say) while nobody was waiting on the stream; commit reports it. */
  private failure: Error | undefined;

  private constructor(
    readonly path: string,
    private temp: string,
    private writer: WriteStream,
  ) {
    this.watch(writer);
  }

  private watch(writer: WriteStream): void {
    writer.on("error", (error) => {
      this.failure ??= error;
    });
  }

  static async create(path: string): Promise<AtomicFile> {
    const temp = AtomicFile.tempName(path);
    return new AtomicFile(path, temp, await AtomicFile.openStream(temp));
  }

  private static tempName(path: string): string {
    return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  }

  private static async openStream(temp: string): Promise<WriteStream> {
    const stream = createWriteStream(temp, { flags: "wx", mode: 0o666 });
    await once(stream, "open"); // rejects with the stream's error if it cannot be opened
    return stream;
  }

  get stream(): WriteStream {
    return this.writer;
  }

  /** Starts over with an empty temporary file (for an export that restarts from page 1). */
  async reset(): Promise<void> {
    await this.abort();
    this.temp = AtomicFile.tempName(this.path);
    this.writer = await AtomicFile.openStream(this.temp);
    this.failure = undefined;
    this.watch(this.writer);
  }

  async commit(): Promise<void> {
    if (this.failure) throw this.failure;
    const finished = once(this.writer, "finish");
    this.writer.end();
    await finished;
    const handle = await open(this.temp, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    // A file replaced keeps its permissions (a cron export readable only by its owner stays so).
    const existing = await stat(this.path).catch(() => undefined);
    if (existing) await chmod(this.temp, existing.mode & 0o777);
    await rename(this.temp, this.path);
  }

  async abort(): Promise<void> {
    this.writer.destroy();
    await unlink(this.temp).catch(() => undefined);
  }

  /** For a signal handler: removes the temporary file without waiting. */
  abortNow(): void {
    this.writer.destroy();
    try {
      unlinkSync(this.temp);
    } catch {
      // already gone
    }
  }
}
