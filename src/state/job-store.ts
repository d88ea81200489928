/**
 * Where a job's state, the record of its last run and its lock live: a kind, as output targets are. Today
 * one kind, files in the config folder's state/ or --state-file (state/file-job-store.ts); a store kept in
 * the target's own database registers beside it in engine/days/job-stores.ts.
 */
import type { LockHolder, LockResult } from "../io/lock-file";
import type { JobTarget } from "./job";
import type { JobState, LastRun, StatePaths } from "./store";

/** Where a job is kept: --state-file (relative to `cwd`) when given, else the store's own place for its id. */
export interface JobPlace {
  cwd: string;
  stateFolder: string;
  stateFile: string | undefined;
}

export interface JobStore {
  readonly name: string;
  /** The job's state, last run and lock, by the names a person is shown (`--dry-run`, messages). */
  paths(place: JobPlace, id: string): StatePaths;
  /** Where the store keeps job `id` of `folder` whatever --state-file says (an earlier id's state, taken over). */
  pathsInFolder(folder: string, id: string): StatePaths;
  /** `user`: the user running adreport, whose own a state must be; undefined before the job's first run. */
  read(paths: StatePaths, user: { uid: number } | undefined): Promise<JobState | undefined>;
  write(paths: StatePaths, state: JobState): Promise<void>;
  /** `user`: when given, a record that is not the user's alone is refused (UsageError), as a state is. */
  readLastRun(paths: StatePaths, user?: { uid: number }): Promise<LastRun | undefined>;
  writeLastRun(paths: StatePaths, run: LastRun): Promise<void>;
  /** Forgets a job: its state (refused when there is none), and its last run. */
  forget(paths: StatePaths): Promise<void>;
  /** Moves a job's state and last run to another id's places (a job whose id changed, taken over). */
  move(from: StatePaths, to: StatePaths): Promise<void>;
  /** The job's lock, held for a whole run; `beside`: another lock next to it (`output-1a2b3c4d`), held as long. */
  lock(paths: StatePaths, beside?: string): Promise<LockResult & { path: string }>;
  /** Who holds the job's lock now, without taking it (undefined: nobody); see io/lock-file.ts lockHolder. */
  lockHolder(paths: StatePaths): Promise<LockHolder | undefined>;
  /** The jobs kept in `folder` whose target is `target` (`same` decides), each one that cannot be used left out. */
  writing(
    folder: string,
    user: { uid: number } | undefined,
    target: JobTarget,
    same: (found: JobTarget) => boolean,
  ): Promise<JobState[]>;
  /** The ids of the jobs in `folder` with a run recorded and no state: their first run exported no day (it failed). */
  notStarted(folder: string): Promise<string[]>;
  /** Every job kept in `folder`, in id order; `unreadable` is told about each one that cannot be used. */
  list(folder: string, user: { uid: number } | undefined, unreadable: (error: Error) => void): Promise<JobState[]>;
}
