/**
 * The stream a formatter writes to: forwards every chunk to the real target with its backpressure, and
 * turns the first failure of the target (a full disk, a reader gone) into a `SinkError` that every later
 * write and the final flush report. A write that fails is never forgotten, whichever call started it.
 */
import { Writable } from "node:stream";
import { errnoCode, reasonInWords } from "./errno-words";

/** The output could not be written. `target` is a path or "standard output"; `code` the system's error code. */
export class SinkError extends Error {
  override readonly name = "SinkError";
  readonly code: string | undefined;

  constructor(
    readonly target: string,
    readonly reason: string,
    options: { code?: string | undefined; cause?: unknown } = {},
  ) {
    super(`cannot write ${target}: ${reason}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code;
  }

  static from(target: string, error: unknown): SinkError {
    if (error instanceof SinkError) return error;
    return new SinkError(target, reasonInWords(error), { code: errnoCode(error), cause: error });
  }
}

export class SinkStream extends Writable {
  bytes = 0;
  private pending = 0;
  private failure: SinkError | undefined;
  private whenSettled: (() => void) | undefined;

  constructor(
    private readonly target: Writable,
    private readonly targetName: string,
    private readonly beforeFirstWrite: () => void = () => undefined,
  ) {
    super({ decodeStrings: false });
    // Errors arrive through each write's callback; without a listener the target's 'error' event would crash.
    target.on("error", () => undefined);
  }

  /** The first failure of the target, if any. */
  get failed(): SinkError | undefined {
    return this.failure;
  }

  override _write(chunk: string | Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.failure) {
      callback(this.failure);
      return;
    }
    if (this.bytes === 0) this.beforeFirstWrite();
    this.bytes += chunk.length;
    this.pending += 1;
    let waiting = false;
    const accepted = this.target.write(chunk, (error?: Error | null) => {
      this.pending -= 1;
      // Once this stream is destroyed (an export given up), the target's complaints about it are no failure.
      if (error && !this.destroyed) this.failure ??= SinkError.from(this.targetName, error);
      if (waiting) callback(this.failure);
      if (this.pending === 0) this.settle();
    });
    // A target over its buffer limit: the chunk's own callback comes once the buffer has drained.
    if (accepted) callback();
    else waiting = true;
  }

  /** Ending this stream waits for every write to reach the target, so a failure of the last one is seen. */
  override _final(callback: (error?: Error | null) => void): void {
    if (this.pending === 0) callback(this.failure);
    else this.whenSettled = () => callback(this.failure);
  }

  private settle(): void {
    const settled = this.whenSettled;
    this.whenSettled = undefined;
    settled?.();
  }
}
