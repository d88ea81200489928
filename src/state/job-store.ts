/**
 * Where a job's state, the record of its last run and its lock live: a kind, as output targets are. Files
 * in the config folder's state/ or --state-file (state/file-job-store.ts), the same files in a `.adreport/`
 * folder beside {date} files, or a table in the target's own database (state/database-job-store.ts); the
 * engine chooses one per job in engine/days/job-stores.ts. A store is opened for a job (or a command) and
 * closed after it: a database's holds a connection.
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

/** A lock taken or refused; `hint`: what a person may do about the holder, where the store knows better than "remove the lock file". */
export type StoreLock = (LockResult & { path: string }) & { hint?: string };

export interface JobStore {
  /** `files` (the config folder's, or --state-file), `files beside` ({date} files' .adreport/), `database`. */
  readonly name: string;
  /** Where it keeps its jobs, in the words of a message (`/home/u/.config/adreport/state`, `the table adreport_jobs in sqlite:/d/ads.db`). */
  readonly where: string;
  /**
   * The words `state --target` finds it by, for a hint (a database's, without its password); undefined for
   * files, whose --target is their {date} template (or none: the config folder's).
   */
  readonly target?: string;
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
  lock(paths: StatePaths, beside?: string): Promise<StoreLock>;
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
  /**
   * Brings a job's state found elsewhere (a mirrored store: the config folder's files only) to the store's
   * own place, once, saying so in `note`; called by a run under the job's lock. Stores with one place have none.
   */
  settle?(paths: StatePaths, user: { uid: number } | undefined, note: (text: string) => void): Promise<void>;
  /** Lets go of what the store holds open (a database connection; a lock still held is released with it). */
  close(): Promise<void>;
}
