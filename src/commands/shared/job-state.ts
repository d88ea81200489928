/** A job named on the command line (its id, or --state-file), and its state: for `state` and `verify`. */
import { resolve } from "node:path";
import { UsageError } from "../../core/errors";
import { printable } from "../../core/printable";
import { jobStore } from "../../engine/days/job-stores";
import { type JobState, pathsInFolder, pathsOfFile, type StatePaths } from "../../state/store";
import type { Context } from "../context";
import { stateFolder } from "./state-folder";

export async function pathsOf(
  ctx: Context,
  job: string | undefined,
  stateFile: string | undefined,
): Promise<StatePaths> {
  if (stateFile !== undefined) {
    if (job !== undefined) throw new UsageError("name a job or give --state-file, not both");
    return pathsOfFile(resolve(ctx.cwd, stateFile));
  }
  if (job === undefined) throw new UsageError("which job? name its id (adreport state list shows them)");
  const id = job.trim().toLowerCase();
  if (!/^[0-9a-f]{8}$/.test(id)) {
    throw new UsageError(`${JSON.stringify(printable(job.slice(0, 40)))} is not a job id (8 hex digits)`, {
      hint: "adreport state list shows the jobs",
    });
  }
  return pathsInFolder(stateFolder(ctx), id);
}

export async function stateAt(ctx: Context, paths: StatePaths, job: string | undefined): Promise<JobState> {
  const state = await jobStore().read(paths, ctx.user);
  if (!state) {
    throw new UsageError(job !== undefined ? `no job ${printable(job)}` : `no state in ${paths.state}`, {
      hint: "adreport state list shows the jobs",
    });
  }
  return state;
}
