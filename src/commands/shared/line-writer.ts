/** A Writable that hands on each whole line written to it (without its line feed), for stderr filters. */
import { Writable } from "node:stream";

export function lineWriter(onLine: (line: string) => void): Writable {
  let pending = "";
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      pending += chunk.toString();
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) onLine(line);
      done();
    },
  });
}
