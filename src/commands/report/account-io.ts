/**
 * The streams of one account in a run over several profiles: stdout is the run's own (an account writes
 * its data to a file), stderr is the run's with each line naming the account (`adreport: acme: ...`).
 */
import type { IOStreams } from "../../io/iostreams";
import { lineWriter } from "../shared/line-writer";

export function accountStreams(io: IOStreams, profile: string): IOStreams {
  const err = lineWriter((line) => {
    io.err.write(`${line.startsWith("adreport: ") ? `adreport: ${profile}: ${line.slice(10)}` : line}\n`);
  });
  return { ...io, err, errIsTTY: false, color: false, errColumns: 0 };
}
