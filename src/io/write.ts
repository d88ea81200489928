import type { Writable } from "node:stream";

/**
 * Writes with backpressure: waits for `drain` when the stream's buffer is full. A stream that failed or
 * was destroyed rejects at once (waiting for a `drain` it will never emit would hang the export).
 */
export async function writeChunk(out: Writable, chunk: string | Uint8Array): Promise<void> {
  if (out.errored) throw out.errored;
  if (out.write(chunk)) return;
  if (out.destroyed) throw out.errored ?? new Error("the output was closed");
  await new Promise<void>((resolve, reject) => {
    const settle = (error?: Error | null) => {
      out.off("drain", onDrain);
      out.off("error", onError);
      out.off("close", onClose);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => settle();
    const onError = (error: Error) => settle(error);
    const onClose = () => settle(out.errored ?? new Error("the output was closed"));
    out.on("drain", onDrain);
    out.on("error", onError);
    out.on("close", onClose);
  });
}
