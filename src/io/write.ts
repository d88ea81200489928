import { once } from "node:events";
import type { Writable } from "node:stream";

/** Writes with backpressure: waits for `drain` when the stream's buffer is full. */
export async function writeChunk(out: Writable, chunk: string | Uint8Array): Promise<void> {
  if (!out.write(chunk)) await once(out, "drain");
}
