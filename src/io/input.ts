/** Reading from the user: all of stdin, a secret at a prompt that does not echo, or answers at prompts that do. */
import type { Readable, Writable } from "node:stream";
import type { IOStreams } from "./iostreams";

export async function readAll(input: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}

export async function readHidden(io: IOStreams, prompt: string, output: Writable = io.err): Promise<string> {
  const { read } = await import("read");
  return read({ prompt, silent: true, replace: "", input: io.in, output, terminal: true });
}

/** Each prompt on stderr, then its answer, a line of stdin (undefined once stdin has ended). */
export async function askLines(
  io: IOStreams,
  prompts: readonly string[],
  say: (prompt: string) => void = (prompt) => io.err.write(prompt),
): Promise<Array<string | undefined>> {
  const { createInterface } = await import("node:readline");
  const reader = createInterface({ input: io.in, terminal: false, crlfDelay: Number.POSITIVE_INFINITY });
  // The iterator keeps lines that arrive before the next prompt; `question` would drop them.
  const lines = reader[Symbol.asyncIterator]();
  const answers: Array<string | undefined> = [];
  try {
    for (const prompt of prompts) {
      say(prompt);
      const next = await lines.next();
      answers.push(next.done === true ? undefined : next.value);
    }
  } finally {
    reader.close();
  }
  return answers;
}
