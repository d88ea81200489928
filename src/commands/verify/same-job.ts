/**
 * Before `verify --repair` writes anything: the job its runs will be (the state's identity, as `report`
 * would plan it) must be the job whose state verify read, kept in the file those runs will read and
 * update. A state edited by hand (its query, output or profile changed, or its file renamed) would
 * otherwise have days written under another job, with other columns, and then fail for want of a state.
 */
import { existsSync } from "node:fs";
import { UsageError } from "../../core/errors";
import { shellWord } from "../../core/shell-word";
import { jobIdentity } from "../../engine/days/incremental-job";
import { earlierJobId, jobId } from "../../engine/days/job-id";
import { jobStatePaths } from "../../engine/days/job-state";
import { jobStoreFor } from "../../engine/days/job-stores";
import type { DayPlan } from "../../engine/plan/plan";
import { type JobState, pathsInFolder, type StatePaths } from "../../state/store";
import type { Context } from "../context";

/** `named`: the job as the command names it (its id, or `--state-file FILE`), for the hint. */
export function checkSameJob(ctx: Context, state: JobState, paths: StatePaths, plan: DayPlan, named: string): void {
  const incremental = plan.incremental;
  if (incremental === undefined) throw new Error("a job's plan that is not incremental");
  const identity = jobIdentity(plan.settings, plan.request.request, plan.output, state.job.baseUrl);
  const id = jobId(identity);
  const earlier = earlierJobId(identity);
  if (state.id !== id && state.id !== earlier) {
    throw new UsageError(
      `the state file ${paths.state} does not hold what job ${state.id} is: edited by hand, its query or output is job ${id}'s; --repair wrote nothing`,
      { hint: `undo the edit, or forget the job (its next run starts at --start): adreport state reset ${named}` },
    );
  }
  // Where its runs keep it: its database's adreport_jobs, a folder beside its files, or the config folder.
  const store = jobStoreFor({
    target: plan.output.target,
    stateFile: incremental.stateFile,
    cwd: ctx.cwd,
    sqliteAddon: undefined,
    connectTimeoutMs: 0,
    connect: undefined,
  });
  const runs = jobStatePaths(ctx.cwd, incremental, id, store).state;
  const kept =
    incremental.stateFile === undefined && earlier === state.id
      ? pathsInFolder(incremental.stateFolder, earlier).state
      : undefined;
  if (paths.state !== runs && paths.state !== kept) {
    throw new UsageError(
      `the state file ${paths.state} holds job ${state.id}, whose runs keep it in ${runs}; --repair wrote nothing`,
      {
        hint: existsSync(runs)
          ? `the job's own state is there: adreport verify ${id} --repair`
          : `put it back: mv ${shellWord(paths.state)} ${shellWord(runs)}`,
      },
    );
  }
}
