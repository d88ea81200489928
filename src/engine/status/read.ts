/**
 * A job's state, its recorded runs and its lock's holder, read through the registered job store
 * (engine/days/job-stores.ts), wherever it keeps them; nothing is locked or written.
 */
import { UsageError } from "../../core/errors";
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

/** A job with a run recorded and no state yet: its first run exported no day. */
export interface NotStartedRead {
  id: string;
  runs: LastRun[];
  where: string;
}

/**
 * The job's recorded runs, newest first. A record that is not the user's alone is refused (UsageError): what
 * it says of the last run is believed. One that cannot be read otherwise says nothing.
 */
async function runsAt(
  paths: StatePaths,
  user: { uid: number } | undefined,
  store: JobStore = jobStore(),
): Promise<LastRun[]> {
  const record = await store.readLastRun(paths, user).catch((error: unknown) => {
    if (error instanceof UsageError) throw error;
    return undefined;
  });
  return recentRuns(record);
}

/** The job `id` at `paths` when it has a run recorded and no state; undefined otherwise. */
export async function readNotStarted(
  paths: StatePaths,
  id: string,
  user: { uid: number } | undefined,
): Promise<NotStartedRead | undefined> {
  const runs = await runsAt(paths, user);
  return runs.length === 0 ? undefined : { id, runs, where: paths.state };
}

/** Every job of the state folder with a run recorded and no state, in id order; `unreadable` as below. */
export async function readAllNotStarted(
  folder: string,
  user: { uid: number } | undefined,
  unreadable: (error: Error) => void,
): Promise<NotStartedRead[]> {
  const store = jobStore();
  const found: NotStartedRead[] = [];
  for (const id of await store.notStarted(folder)) {
    const job = await readNotStarted(store.pathsInFolder(folder, id), id, user).catch(refusedTo(unreadable));
    if (job !== undefined) found.push(job);
  }
  return found;
}

/** A job refused (UsageError) is told to `unreadable` and left out; anything else is thrown on. */
function refusedTo(unreadable: (error: Error) => void) {
  return (error: unknown): undefined => {
    if (!(error instanceof UsageError)) throw error;
    unreadable(error);
    return undefined;
  };
}

/** The job whose state is at `paths`; undefined when there is none. A state that cannot be used throws (UsageError). */
export async function readJob(
  paths: StatePaths,
  user: { uid: number } | undefined,
  store: JobStore = jobStore(),
): Promise<JobRead | undefined> {
  const state = await store.read(paths, user);
  if (state === undefined) return undefined;
  return readBeside(state, paths, user, store);
}

async function readBeside(
  state: JobState,
  paths: StatePaths,
  user: { uid: number } | undefined,
  store: JobStore,
): Promise<JobRead> {
  const runs = await runsAt(paths, user, store);
  const holder = await store.lockHolder(paths);
  return { state, runs, holder, where: paths.state, target: targetText(state.job.target) };
}

/** Every job of the state folder, in id order; `unreadable` is told about each one that cannot be used. */
export async function readAllJobs(
  folder: string,
  user: { uid: number } | undefined,
  unreadable: (error: Error) => void,
  store: JobStore = jobStore(),
): Promise<JobRead[]> {
  const states = await store.list(folder, user, unreadable);
  const read = await Promise.all(
    states.map((state) =>
      readBeside(state, store.pathsInFolder(folder, state.id), user, store).catch(refusedTo(unreadable)),
    ),
  );
  return read.filter((job): job is JobRead => job !== undefined);
}
