/**
 * What a database offers a job store (state/database-job-store.ts): the rows of its `adreport_jobs`
 * table, by job id, and a lock per job. A table kind provides it (targets/table/jobs.ts over its driver);
 * the store knows no driver, no SQL and no target kind.
 */
import type { LockResult } from "../io/lock-file";

/** A job's row: its state and last run as JSON values (null while there is none), as the table holds them. */
export interface JobRow {
  id: string;
  state: unknown;
  lastRun: unknown;
}

export interface JobTable {
  /** The job's row; undefined when there is none, or no table yet (nothing is created to read). */
  get(id: string): Promise<JobRow | undefined>;
  /** Every row, in id order; `target`: only the jobs writing that target (its kind's one text). */
  all(target?: string): Promise<JobRow[]>;
  /** Replaces the job's state (the table made on first use); `target`: its target in its kind's one text. */
  putState(id: string, target: string, state: unknown): Promise<void>;
  putLastRun(id: string, target: string, run: unknown): Promise<void>;
  /** Forgets the job's row; false when there was none. */
  remove(id: string): Promise<boolean>;
  /**
   * The job's lock for a run, held until released or until the process (its connection) goes. Refused at
   * once when held: `holder` as `4242 on "host-b" since 2026-11-29 06:00:02 UTC`.
   */
  lock(id: string): Promise<LockResult & { path: string; hint?: string }>;
  close(): Promise<void>;
}

/** A job table's database, before it is opened: its words for messages, and the opening (a driver loaded then). */
export interface JobDatabase {
  /** `the table adreport_jobs in postgres://host/db`: never a password. */
  readonly where: string;
  /** The database as -o (and `state --target`) names it, without its password: `postgres://host/db`, `sqlite:/d/ads.db`. */
  readonly database: string;
  open(): Promise<JobTable>;
}
