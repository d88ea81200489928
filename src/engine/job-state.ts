/**
 * Where an incremental job's state and lock are, and its state read for this job: shared by a run
 * (incremental-job.ts, under its lock) and by a dry run (plan-description.ts, which takes no lock).
 */
import { resolve } from "node:path";
import { UsageError } from "../core/errors";
import { type JobState, pathsInFolder, pathsOfFile, readState, type StatePaths } from "../state/store";
import type { IncrementalPlan } from "./plan";

/** --state-file (relative to `cwd`) when given, else `<id>.json` in the state folder. */
export function jobStatePaths(cwd: string, incremental: IncrementalPlan, id: string): StatePaths {
  return incremental.stateFile !== undefined
    ? pathsOfFile(resolve(cwd, incremental.stateFile))
    : pathsInFolder(incremental.stateFolder, id);
}

/**
 * The job's state, or undefined before its first run; refused when it is another job's. `earlier`: the id
 * earlier builds gave the same job (a database job's, with its metrics), whose state is this job's.
 */
export async function readJobState(
  paths: StatePaths,
  user: { uid: number } | undefined,
  id: string,
  earlier?: string,
): Promise<JobState | undefined> {
  const state = await readState(paths.state, user);
  if (state && earlier !== undefined && state.id === earlier) return { ...state, id };
  if (state && state.id !== id) {
    throw new UsageError(
      `the state file ${paths.state} belongs to another job (${state.id}), not to this one (${id})`,
      {
        hint: "give each job a --state-file of its own",
      },
    );
  }
  return state;
}
