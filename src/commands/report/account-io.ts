/**
 * The streams of one account in a run over several profiles: stdout is the run's own (an account writes
 * its data to a file), stderr is the run's with each line naming the account (`adreport: acme: ...`), and
 * lines the run has already printed once for every account (warnings about the flags) are dropped.
 */
import { Writable } from "node:stream";
import type { IOStreams } from "../../io/iostreams";

export function accountStreams(io: IOStreams, profile: string, printedOnce: ReadonlySet<string>): IOStreams {
  let pending = "";
  const err = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      pending += chunk.toString();
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        if (printedOnce.has(line)) continue;
        io.err.write(`${line.startsWith("adreport: ") ? `adreport: ${profile}: ${line.slice(10)}` : line}\n`);
      }
      done();
    },
  });
  return { ...io, err, errIsTTY: false, color: false, errColumns: 0 };
}
