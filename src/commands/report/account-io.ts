/**
 * The streams of one account in a run over several profiles: stdout is the run's own (an account writes
 * its data to a file), stderr is the run's with each line naming the account (`adreport: acme: ...`). What
 * loading the settings says (the config file's mode) is said once for the run, as for one account.
 */
import type { IOStreams } from "../../io/iostreams";
import { lineWriter } from "../shared/line-writer";
import { shareSettingWarnings } from "../shared/settings";

export function accountStreams(io: IOStreams, profile: string): IOStreams {
  const err = lineWriter((line) => {
    io.err.write(`${line.startsWith("adreport: ") ? `adreport: ${profile}: ${line.slice(10)}` : line}\n`);
  });
  shareSettingWarnings(err, io.err);
  return { ...io, err, errIsTTY: false, color: false, errColumns: 0 };
}
