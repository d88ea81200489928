/** The flags of `adreport status`. */
import { type Command, Option } from "@commander-js/extra-typings";
import type { OptionsOf } from "../shared/declared";

export function declareStatus(program: Command) {
  return program
    .command("status")
    .description(
      "is yesterday's data there, and is it final? each job's newest day and newest settled day, its last run and lock; --max-lag alerts by exit code",
    )
    .argument("[jobs...]", "job ids, as `adreport state list` shows them (default: every job)")
    .option("--state-file <file>", "the state of a job run with --state-file FILE")
    .option(
      "--target <output>",
      "also the jobs kept in this database (sqlite:PATH, postgres://...) or beside these {date} files (their .adreport/): a fresh container",
    )
    .option(
      "--max-lag <days>",
      "exit 8 when a job's newest day lags more days than this behind yesterday, its last run failed, or it has not run since (2d; default: each job's profile's max-lag setting)",
    )
    .addOption(
      new Option(
        "--format <format>",
        "human (the default: a line a job, or one job's summary) or json (one document)",
      ).choices(["human", "json"] as const),
    )
    .addHelpText(
      "after",
      `
Freshness is measured on the days exported (the job's ledger), never on when they were loaded.
Exit codes: 0 every job within its lag, 8 a job lagging, failed or stalled (named on stderr; its status
on stdout all the same), 2 an unknown job or a state that cannot be read. adreport help monitoring says
what each field means.

Examples:
  $ adreport status
  $ adreport status 3f9a01c2
  $ adreport status --max-lag 2d --format json`,
    );
}

export type StatusOptions = OptionsOf<typeof declareStatus>;
