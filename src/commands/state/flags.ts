/** The flags and arguments of `adreport state`'s subcommands, and the options types their runs take. */
import type { Command } from "@commander-js/extra-typings";
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
      "a job's state as one JSON document: what makes it a job, the last day exported, the days in the lookback",
    )
    .argument("[job]", "the job's id, as `state list` shows it")
    .option("--state-file <file>", "the state of a job run with --state-file FILE")
    .option(
      "--target <output>",
      "a job kept in this database (sqlite:PATH, postgres://...) or beside these {date} files (their .adreport/)",
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
