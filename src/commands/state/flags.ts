/** The flags and arguments of `adreport state`'s subcommands, and the options types their runs take. */
import { type Command, Option } from "@commander-js/extra-typings";
import type { OptionsOf } from "../shared/declared";
import { jsonAliasOption, recordFormatOption } from "../shared/records";

export function declareList(state: Command) {
  return state
    .command("list")
    .description("every job: its id, the last day exported, the last run and how it ended, its output")
    .addOption(recordFormatOption("table"))
    .addOption(jsonAliasOption())
    .option(
      "--target <output>",
      "also the jobs kept in this database (sqlite:PATH, postgres://...) or beside these {date} files (their .adreport/)",
    );
}

export function declareShow(state: Command) {
  return state
    .command("show")
    .description(
      "a job's summary, as `adreport status JOB` gives it; --ledger: its whole state as one JSON document (what makes it a job, the last day exported, every day it wrote, its last run)",
    )
    .argument("[job]", "the job's id, as `state list` shows it")
    .option("--state-file <file>", "the state of a job run with --state-file FILE")
    .option(
      "--target <output>",
      "a job kept in this database (sqlite:PATH, postgres://...) or beside these {date} files (their .adreport/)",
    )
    .option(
      "--ledger",
      "the whole state as one JSON document, as earlier versions printed it (also what stdout gets when it is not a terminal and no --format is given)",
    )
    .addOption(
      new Option(
        "--format <format>",
        "human (the summary) or json (the summary as `status --format json` gives it)",
      ).choices(["human", "json"] as const),
    );
}

export function declareReset(state: Command) {
  return state
    .command("reset")
    .description("export again from a day on the next run (--from), or forget the job (the next run starts at --start)")
    .argument("[job]", "the job's id, as `state list` shows it")
    .option("--from <date>", "the first day the next run exports again (YYYY-MM-DD)")
    .option("--state-file <file>", "the state of a job run with --state-file FILE")
    .option(
      "--target <output>",
      "a job kept in this database (sqlite:PATH, postgres://...) or beside these {date} files (their .adreport/)",
    );
}

export type StateListOptions = OptionsOf<typeof declareList>;
export type StateShowOptions = OptionsOf<typeof declareShow>;
export type StateResetOptions = OptionsOf<typeof declareReset>;
