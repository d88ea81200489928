/**
 * Where an incremental job's state and lock are, and its state read for this job: shared by a run
 * (engine/days/incremental-job.ts, under its lock) and by a dry run (engine/plan/description.ts, which takes no
 * lock). `store`: the job's (engine/days/job-stores.ts jobStoreFor); the config folder's files by default.
 */
import { UsageError } from "../../core/errors";
import { shellWord } from "../../core/shell-word";
import { identityDifferences, type JobIdentity } from "../../state/job";
import type { JobStore } from "../../state/job-store";
import type { JobState, StatePaths } from "../../state/store";
import { kindOf, sameTarget, targetText } from "../../targets/registry";
import type { IncrementalPlan } from "../plan/plan";
import { jobStore } from "./job-stores";

/** --state-file (relative to `cwd`) when given, else the store's place for `id` (`<id>.json` in the state folder). */
export function jobStatePaths(
  cwd: string,
  incremental: IncrementalPlan,
  id: string,
  store: JobStore = jobStore(),
): StatePaths {
  return store.paths({ cwd, stateFolder: incremental.stateFolder, stateFile: incremental.stateFile }, id);
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
  store: JobStore = jobStore(),
): Promise<JobState | undefined> {
  const state = await store.read(paths, user);
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

/**
 * The job's state as a run finds it: at its own path, or, for a database job whose state an earlier build
 * kept under the id with the metrics in (`earlier`), in that file of the state folder (`from`: the paths a
 * run moves it from). Read by a run under its lock and by a dry run.
 */
export async function findJobState(
  cwd: string,
  incremental: IncrementalPlan,
  user: { uid: number } | undefined,
  ids: { id: string; earlier: string | undefined },
  store: JobStore = jobStore(),
): Promise<{ paths: StatePaths; state: JobState | undefined; from?: StatePaths }> {
  const { id, earlier } = ids;
  const paths = jobStatePaths(cwd, incremental, id, store);
  const state = await readJobState(paths, user, id, earlier, store);
  if (state !== undefined || earlier === undefined || incremental.stateFile !== undefined) return { paths, state };
  const from = store.pathsInFolder(incremental.stateFolder, earlier);
  const kept = await readJobState(from, user, id, earlier, store);
  return kept === undefined ? { paths, state } : { paths, state: kept, from };
}

/**
 * An output belongs to the job whose state records it (as a dlt pipeline's dataset belongs to its state):
 * {date} files to one job, a table's rows of one profile to one job. A new job (an incremental job's first
 * run, or any run without --incremental, which keeps no state) whose output another job in the state folder
 * writes is refused: a changed base URL, metric or granularity makes another job, which would rewrite the
 * first one's days while the first one's ledger goes on describing them.
 */
export async function refuseOtherOwner(
  folder: string,
  user: { uid: number } | undefined,
  job: { identity: JobIdentity; id: string; earlier: string | undefined; incremental: boolean },
  store: JobStore = jobStore(),
): Promise<void> {
  const { identity, id, earlier, incremental } = job;
  // A target every account writes at once belongs to one job per profile (its rows); else to one job.
  const perProfile = kindOf(identity.target).writers === "per-profile";
  // The job's own store, and the config folder's files, which may still keep another job's state.
  const stores = store === jobStore() ? [store] : [store, jobStore()];
  const states: JobState[] = [];
  for (const s of stores) {
    states.push(...(await s.writing(folder, user, identity.target, (found) => sameTarget(found, identity.target))));
  }
  const owner = states.find(
    (state) => state.id !== id && state.id !== earlier && (!perProfile || state.job.profile === identity.profile),
  );
  if (owner === undefined) return;
  const rows = identity.profile === null ? "the rows without a profile" : `profile ${identity.profile}'s rows`;
  const text = targetText(identity.target);
  const what = perProfile ? `${rows} of ${text}` : text;
  const differs = identityDifferences(owner.job, identity);
  // A job kept beside its data is found from a host that does not know it (a fresh container) by naming where.
  const named = store === jobStore() ? "" : ` --target ${shellWord(store.target ?? text)}`;
  throw new UsageError(
    `job ${id} would ${incremental ? "start on" : "write"} ${what}, which job ${owner.id} writes (last day ${owner.lastDay})${differs.length > 0 ? `: it differs in ${differs.join(", ")}` : ""}`,
    {
      hint: incremental
        ? `if job ${owner.id} is done with it, forget it first: adreport state reset ${owner.id}${named} (this job then starts at --start); else give this job its own -o`
        : `run it with job ${owner.id}'s query, or give this run its own -o; if job ${owner.id} is done with it: adreport state reset ${owner.id}${named}`,
    },
  );
}
