/**
 * A job's state, its recorded runs and its lock's holder, read through the registered job store
 * (engine/days/job-stores.ts), wherever it keeps them; nothing is locked or written.
 */
import type { LockHolder } from "../../io/lock-file";
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

/** A job with a run recorded and no state yet: its first run exported no day. */
export interface NotStartedRead {
  id: string;
  runs: LastRun[];
  where: string;
}

/** The job `id` at `paths` when it has a run recorded and no state; undefined otherwise. */
export async function readNotStarted(paths: StatePaths, id: string): Promise<NotStartedRead | undefined> {
  const runs = recentRuns(
    await jobStore()
      .readLastRun(paths)
      .catch(() => undefined),
  );
  return runs.length === 0 ? undefined : { id, runs, where: paths.state };
}

/** Every job of the state folder with a run recorded and no state, in id order. */
export async function readAllNotStarted(folder: string): Promise<NotStartedRead[]> {
  const store = jobStore();
  const ids = await store.notStarted(folder);
  const found = await Promise.all(ids.map((id) => readNotStarted(store.pathsInFolder(folder, id), id)));
  return found.filter((job): job is NotStartedRead => job !== undefined);
}

/** The job whose state is at `paths`; undefined when there is none. A state that cannot be used throws (UsageError). */
export async function readJob(paths: StatePaths, user: { uid: number } | undefined): Promise<JobRead | undefined> {
  const store = jobStore();
  const state = await store.read(paths, user);
  if (state === undefined) return undefined;
  return readBeside(state, paths);
}

async function readBeside(state: JobState, paths: StatePaths): Promise<JobRead> {
  const store = jobStore();
  const record = await store.readLastRun(paths).catch(() => undefined);
  const holder = await store.lockHolder(paths);
  return { state, runs: recentRuns(record), holder, where: paths.state, target: targetText(state.job.target) };
}

/** Every job of the state folder, in id order; `unreadable` is told about each one that cannot be used. */
export async function readAllJobs(
  folder: string,
  user: { uid: number } | undefined,
  unreadable: (error: Error) => void,
): Promise<JobRead[]> {
  const store = jobStore();
  const states = await store.list(folder, user, unreadable);
  return Promise.all(states.map((state) => readBeside(state, store.pathsInFolder(folder, state.id))));
}
