/**
 * Where an export goes: stdout, or a file written atomically. An export that must start over (the data
 * changed under it) can, if the sink is a file or nothing has reached stdout yet.
 */
import { Writable } from "node:stream";
import { AtomicFile } from "./atomic-file";

export interface Sink {
  readonly stream: Writable;
  /** True when what was written so far can be taken back. */
  canRestart(): boolean;
  reset(): Promise<void>;
  /** The export is complete: flush, and for a file, put it in place. */
  commit(): Promise<void>;
  /** The export failed: for a file, leave the old one untouched and no temporary file behind. */
  abort(): Promise<void>;
  /** For a signal handler: drop everything without waiting. */
  abortNow(): void;
  readonly description: string;
}

/** Forwards to `target`, counting bytes, with the target's backpressure. */
class CountingWritable extends Writable {
  bytes = 0;
  constructor(
    private readonly target: Writable,
    private readonly beforeFirstWrite: () => void,
  ) {
    super({ decodeStrings: false });
  }

  override _write(chunk: string | Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.bytes === 0) this.beforeFirstWrite();
    this.bytes += chunk.length;
    if (this.target.write(chunk)) callback();
    else this.target.once("drain", () => callback());
  }
}

/** `beforeFirstWrite` lets a progress display leave the terminal before data lands on it. */
export function stdoutSink(out: Writable, beforeFirstWrite: () => void = () => undefined): Sink {
  const stream = new CountingWritable(out, beforeFirstWrite);
  stream.on("error", () => undefined);
  return {
    stream,
    description: "stdout",
    canRestart: () => stream.bytes === 0,
    reset: async () => undefined,
    commit: () =>
      new Promise<void>((resolve, reject) => {
        stream.end(() => resolve());
        stream.once("error", reject);
      }),
    abort: async () => undefined,
    abortNow: () => undefined,
  };
}

/** A file that cannot be created: the message names the file and says why in words. */
export class SinkOpenError extends Error {
  override readonly name = "SinkOpenError";
}

export async function fileSink(path: string): Promise<Sink> {
  let file: AtomicFile;
  try {
    file = await AtomicFile.create(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === "ENOENT" ? "no such folder" : code === "EACCES" ? "permission denied" : (error as Error).message;
    throw new SinkOpenError(`cannot write ${path}: ${reason}`);
  }
  return {
    get stream() {
      return file.stream;
    },
    description: path,
    canRestart: () => true,
    reset: () => file.reset(),
    commit: () => file.commit(),
    abort: () => file.abort(),
    abortNow: () => file.abortNow(),
  };
}
