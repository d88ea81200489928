/**
 * The streams of one account in a run over several profiles: stdout is the run's own (an account writes
 * its data to a file), stderr is the run's with each line naming the account (`adreport: acme: ...`), and
 * lines the run has already printed once for every account (warnings about the flags) are dropped.
 */
import type { IOStreams } from "../../io/iostreams";
import type { Context } from "../context";
import { lineWriter } from "../shared/line-writer";

export function accountStreams(io: IOStreams, profile: string, printedOnce: ReadonlySet<string>): IOStreams {
  const err = lineWriter((line) => {
    if (printedOnce.has(line)) return;
    io.err.write(`${line.startsWith("adreport: ") ? `adreport: ${profile}: ${line.slice(10)}` : line}\n`);
  });
  return { ...io, err, errIsTTY: false, color: false, errColumns: 0 };
}

/** A stderr that also remembers every line written, so accounts do not print them again. */
export function recordingErr(ctx: Context, printed: Set<string>): Context {
  const err = lineWriter((line) => {
    printed.add(line);
    ctx.io.err.write(`${line}\n`);
  });
  return { ...ctx, io: { ...ctx.io, err } };
}
