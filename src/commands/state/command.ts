/** `adreport state`: the jobs of incremental runs, what each has exported, and starting one over. */
import type { Command } from "@commander-js/extra-typings";
import type { Context } from "../context";
import { declareList, declareReset, declareShow } from "./flags";

export function registerState(program: Command, ctx: Context): void {
  const state = program
    .command("state")
    .description("the jobs of `report --incremental`: list them, show one, reset one")
    .addHelpText(
      "after",
      `
Each job (profile, service, query without dates, output) keeps its state in the config folder's state/;
a job writing a database keeps it in that database too (the table adreport_jobs), where a fresh
container finds it: name the database with --target.

Examples:
  $ adreport state list
  $ adreport state list --target postgres://adreport@db/ads
  $ adreport state show 3f9a01c2
  $ adreport state reset 3f9a01c2 --from 2026-11-01`,
    );
  const run = async () => import("./run");
  declareList(state).action(async (options) => (await run()).runStateList(ctx, options));
  declareShow(state).action(async (job, options) => (await run()).runStateShow(ctx, job, options));
  declareReset(state).action(async (job, options) => (await run()).runStateReset(ctx, job, options));
}
