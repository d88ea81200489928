/**
 * Where an export goes: stdout, or what `-o PATH` names (file-sink.ts). An export that must start over
 * (the data changed under it) can, if the sink is an atomic file or nothing has reached the target yet.
 */
import type { Writable } from "node:stream";
import { type SinkError, SinkStream } from "./sink-stream";

export { SinkError } from "./sink-stream";

export interface Sink {
  readonly stream: Writable;
  /** True when what was written so far can be taken back. */
  canRestart(): boolean;
  reset(): Promise<void>;
  /** The export is complete: flush, and for an atomic file, put it in place. Rejects with a SinkError. */
  commit(): Promise<void>;
  /** The export failed: for an atomic file, leave the old one untouched and no temporary file behind. */
  abort(): Promise<void>;
  /** For a signal handler: drop everything without waiting. */
  abortNow(): void;
  /** The first failure to write, if there was one (the error a formatter saw may be a later consequence). */
  failure(): SinkError | undefined;
  readonly description: string;
  /** True for a regular file replaced atomically: on failure the old file is left as it was. */
  readonly atomic: boolean;
}

export const STDOUT_NAME = "standard output";

export function endStream(stream: SinkStream): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    stream.once("error", reject);
    stream.end(() => resolve());
  });
}

/** `beforeFirstWrite` lets a progress display leave the terminal before data lands on it. */
export function stdoutSink(out: Writable, beforeFirstWrite: () => void = () => undefined): Sink {
  return streamSink(out, STDOUT_NAME, beforeFirstWrite, async () => undefined);
}

/** The stream a formatter writes to; its failures are read from `failed`, not from 'error' events. */
export function watchedStream(target: Writable, name: string, beforeFirstWrite?: () => void): SinkStream {
  const stream = new SinkStream(target, name, beforeFirstWrite);
  stream.on("error", () => undefined);
  return stream;
}

/** A target written as it goes: what reached it cannot be taken back. */
export function streamSink(
  target: Writable,
  name: string,
  beforeFirstWrite: () => void,
  close: () => Promise<void>,
): Sink {
  const stream = watchedStream(target, name, beforeFirstWrite);
  return {
    stream,
    description: name,
    atomic: false,
    canRestart: () => stream.bytes === 0,
    reset: async () => undefined,
    commit: async () => {
      try {
        await endStream(stream);
      } finally {
        await close();
      }
      if (stream.failed) throw stream.failed;
    },
    abort: async () => {
      stream.destroy();
      await close().catch(() => undefined);
    },
    abortNow: () => stream.destroy(),
    failure: () => stream.failed,
  };
}
