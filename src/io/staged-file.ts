/**
 * A file staged beside its target and put in place later: written and closed (and synced) first, renamed
 * over the target only when the caller decides, or removed. Many can be staged at once (one per day of an
 * export) with only the ones still being written holding a descriptor. The steps are replace-file.ts's.
 */
import { once } from "node:events";
import type { WriteStream } from "node:fs";
import { fileDigest, sameBytes } from "./file-digest";
import {
  nodeReplaceFs,
  openTempStream,
  putInPlace,
  type ReplaceFs,
  removeTemp,
  removeTempNow,
  syncFile,
  tempPathBeside,
} from "./replace-file";

export class StagedFile {
  private failure: Error | undefined;
  private done = false;

  private constructor(
    readonly path: string,
    private readonly temp: string,
    readonly stream: WriteStream,
    private readonly fs: ReplaceFs,
  ) {
    stream.on("error", (error) => {
      this.failure ??= error;
    });
  }

  static async create(path: string, fs: ReplaceFs = nodeReplaceFs): Promise<StagedFile> {
    const temp = tempPathBeside(path);
    return new StagedFile(path, temp, await openTempStream(temp), fs);
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
    await syncFile(this.temp, this.fs);
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

  /** Puts the finished file in place, keeping the permissions of the file it replaces; syncs the folder. */
  async commit(): Promise<void> {
    await putInPlace(this.temp, this.path, { keepMode: true }, this.fs);
    this.done = true;
  }

  async discard(): Promise<void> {
    if (this.done) return;
    this.done = true;
    this.stream.destroy();
    await removeTemp(this.temp, this.fs);
  }

  /** For a signal handler: removes the temporary file without waiting. */
  discardNow(): void {
    if (this.done) return;
    this.done = true;
    // With an error: a writer waiting for the stream to drain is told, instead of waiting for ever (the
    // process would then end with nothing left to do: exit 0, the run neither done nor failed).
    this.stream.destroy(new Error("the export was stopped"));
    removeTempNow(this.temp);
  }
}
