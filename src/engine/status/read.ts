/**
 * A job's state, its recorded runs and its lock's holder, read through the registered job store
 * (engine/days/job-stores.ts), wherever it keeps them; nothing is locked or written.
 */
import type { LockHolder } from "../../io/lock-file";
import type { JobStore } from "../../state/job-store";
import type { JobState, LastRun, StatePaths } from "../../state/store";
import { targetText } from "../../targets/registry";
import { jobStore } from "../days/job-stores";
import { recentRuns } from "./recent-runs";

export interface JobRead {
  state: JobState;
  runs: LastRun[];
  holder: LockHolder | undefined;
  where: string;
  target: string;
}

/** The job whose state is at `paths`; undefined when there is none. A state that cannot be used throws (UsageError). */
export async function readJob(
  paths: StatePaths,
  user: { uid: number } | undefined,
  store: JobStore = jobStore(),
): Promise<JobRead | undefined> {
  const state = await store.read(paths, user);
  if (state === undefined) return undefined;
  return readBeside(state, paths, store);
}

async function readBeside(state: JobState, paths: StatePaths, store: JobStore): Promise<JobRead> {
  const record = await store.readLastRun(paths).catch(() => undefined);
  const holder = await store.lockHolder(paths);
  return { state, runs: recentRuns(record), holder, where: paths.state, target: targetText(state.job.target) };
}

/** Every job of the state folder, in id order; `unreadable` is told about each one that cannot be used. */
export async function readAllJobs(
  folder: string,
  user: { uid: number } | undefined,
  unreadable: (error: Error) => void,
  store: JobStore = jobStore(),
): Promise<JobRead[]> {
  const states = await store.list(folder, user, unreadable);
  return Promise.all(states.map((state) => readBeside(state, store.pathsInFolder(folder, state.id), store)));
}
