/**
 * The streams of one account in a run over several profiles: stdout is the run's own (an account writes
 * its data to a file), stderr is the run's with each line naming the account (`adreport: acme: ...`; in JSON
 * logs, a `profile` field). What loading the settings says (the config file's mode) is said once for the
 * run, as for one account.
 */
import { type LineTag, LOG_TAG, tagLine, writesJsonLogs } from "../../core/log-codes";
import type { IOStreams } from "../../io/iostreams";
import { lineWriter } from "../shared/line-writer";
import { shareSettingWarnings } from "../shared/settings";

export function accountStreams(io: IOStreams, profile: string): IOStreams {
  const err = writesJsonLogs(io.err) ? jsonAccountErr(io, profile) : textAccountErr(io, profile);
  shareSettingWarnings(err, io.err);
  return { ...io, err, errIsTTY: false, color: false, errColumns: 0 };
}

function textAccountErr(io: IOStreams, profile: string) {
  return lineWriter((line) => {
    io.err.write(`${line.startsWith("adreport: ") ? `adreport: ${profile}: ${line.slice(10)}` : line}\n`);
  });
}

/** Each write handed on whole, with what its writer said it is and the account's name. */
function jsonAccountErr(io: IOStreams, profile: string) {
  let tag: LineTag | undefined;
  const err = lineWriter((line) => {
    tagLine(io.err, { ...tag, fields: { ...tag?.fields, profile } });
    tag = undefined;
    io.err.write(`${line}\n`);
  });
  Object.defineProperty(err, LOG_TAG, {
    value: (next: LineTag) => {
      tag = next;
    },
  });
  return err;
}
