/** Reading a secret: all of stdin, or a prompt on the terminal that does not echo. */
import type { Readable } from "node:stream";
import type { IOStreams } from "./iostreams";

export async function readAll(input: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}

export async function readHidden(io: IOStreams, prompt: string): Promise<string> {
  const { read } = await import("read");
  return read({ prompt, silent: true, replace: "", input: io.in, output: io.err, terminal: true });
}
