/** `adreport state`: the jobs of incremental runs, what each has exported, and starting one over. */
import type { Command } from "@commander-js/extra-typings";
import type { Context } from "../context";
import type { OptionsOf } from "../shared/declared";
import { jsonAliasOption, recordFormatOption } from "../shared/records";

function declareList(state: Command) {
  return state
    .command("list")
    .description("every job: its id, the last day exported, the last run and how it ended, its output")
    .addOption(recordFormatOption("table"))
    .addOption(jsonAliasOption());
}

function declareShow(state: Command) {
  return state
    .command("show")
    .description(
      "a job's state as one JSON document: what makes it a job, the last day exported, the days in the lookback",
    )
    .argument("[job]", "the job's id, as `state list` shows it")
    .option("--state-file <file>", "the state of a job run with --state-file FILE");
}

function declareReset(state: Command) {
  return state
    .command("reset")
    .description("export again from a day on the next run (--from), or forget the job (the next run starts at --start)")
    .argument("[job]", "the job's id, as `state list` shows it")
    .option("--from <date>", "the first day the next run exports again (YYYY-MM-DD)")
    .option("--state-file <file>", "the state of a job run with --state-file FILE");
}

export type StateListOptions = OptionsOf<typeof declareList>;
export type StateShowOptions = OptionsOf<typeof declareShow>;
export type StateResetOptions = OptionsOf<typeof declareReset>;

export function registerState(program: Command, ctx: Context): void {
  const state = program
    .command("state")
    .description("the jobs of `report --incremental`: list them, show one, reset one")
    .addHelpText(
      "after",
      `
Each job (profile, service, query without dates, output) keeps its state in the config folder's state/.

Examples:
  $ adreport state list
  $ adreport state show 3f9a01c2
  $ adreport state reset 3f9a01c2 --from 2026-11-01`,
    );
  const run = async () => import("./run");
  declareList(state).action(async (options) => (await run()).runStateList(ctx, options));
  declareShow(state).action(async (job, options) => (await run()).runStateShow(ctx, job, options));
  declareReset(state).action(async (job, options) => (await run()).runStateReset(ctx, job, options));
}
