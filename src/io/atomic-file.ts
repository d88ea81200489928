/**
 * A file written atomically: a temporary file beside the target, renamed over it on commit (replace-file.ts).
 * On abort, or if the process is stopped, the old file is untouched and the temporary file is removed. It
 * can start over (an export that restarts from page 1) with a new temporary file.
 */
import type { WriteStream } from "node:fs";
import { nodeReplaceFs, type ReplaceFs } from "./replace-file";
import { StagedFile } from "./staged-file";

export class AtomicFile {
  private constructor(
    readonly path: string,
    private staged: StagedFile,
    private readonly fs: ReplaceFs,
  ) {}

  static async create(path: string, fs: ReplaceFs = nodeReplaceFs): Promise<AtomicFile> {
    return new AtomicFile(path, await StagedFile.create(path, fs), fs);
  }

  get stream(): WriteStream {
    return this.staged.stream;
  }

  /** Starts over with an empty temporary file (for an export that restarts from page 1). */
  async reset(): Promise<void> {
    await this.staged.discard();
    this.staged = await StagedFile.create(this.path, this.fs);
  }

  /** Writes out, syncs, renames over the target (keeping its permissions) and syncs the folder. */
  async commit(): Promise<void> {
    await this.staged.finish();
    await this.staged.commit();
  }

  async abort(): Promise<void> {
    await this.staged.discard();
  }

  /** For a signal handler: removes the temporary file without waiting. */
  abortNow(): void {
    this.staged.discardNow();
  }
}
