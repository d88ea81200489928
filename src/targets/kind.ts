/**
 * A kind of output target a run of whole days writes (day files, a SQLite or a PostgreSQL table), as dlt
 * has destinations: each kind in a folder of its own (targets/<kind>/kind.ts), registered by one line in
 * targets/registry.ts. Nothing outside the kinds names one: the engine, the commands and state/ ask
 * the kind. A kind's module is light; its writer and reader (and their drivers) are loaded when opened.
 */
import type { ReportRequest } from "../contract";
import type { PaceLedger } from "../core/pace-slot";
import type { FormatOptions, Formatter } from "../format/formatter";
import type { JobTarget } from "../state/job";
import type { JobDatabase } from "../state/job-table";
import type { DayTarget } from "./day-target";
import type { TableReader } from "./table/reader";

/** The words of the flags that name a target: -o (and --table, and --dims for a table's default name). */
export interface TargetWords {
  output: string;
  table?: string | undefined;
  dimensions?: string | undefined;
}

/** -o read by its kind: what a plan holds of its target. */
export interface TargetSpec<T extends JobTarget = JobTarget> {
  readonly kind: "target";
  /** The target as its job keeps it: its id hashes the kind's text of it. */
  readonly target: T;
  /** The target in the words of a refusal (`{date} in --output`, `a database target`). */
  readonly what: string;
  /** Day files: their template as given (their format, their folder, complete days only); else undefined. */
  readonly template: string | undefined;
  /** -o as given: how this run reaches the target (a PostgreSQL URL with its password: never shown). */
  readonly given: string;
}

/** What opening a target's writer needs of the run. */
export interface OpenOptions {
  cwd: string;
  now: Date;
  profile: string;
  request: ReportRequest;
  sqliteAddon: object | undefined;
  connectTimeoutMs: number;
  /** This run's id and its job's: on a table's rows and in its adreport_loads. */
  runId: string;
  job: string;
  note(text: string): void;
  /** Day files: how each is written (loaded by the engine, which knows the plan's format). */
  dayFiles: { formatter: Formatter; options: FormatOptions } | undefined;
}

export type OpenTarget = DayTarget & { close(): Promise<void> };

/** Where `verify` reads a job's target from: the run's folder and, for a database, a URL with its password. */
export interface ReadPlace {
  cwd: string;
  sqliteAddon: object | undefined;
  /** --db (or -o URL): the job's database with its password; refused when it names another. */
  db: string | undefined;
  profile: string;
  request: ReportRequest;
}

/** Where a job store reaches a target's database: `connect`, -o (or --db, --target) with its password, when given. */
export interface JobDatabasePlace {
  cwd: string;
  sqliteAddon: object | undefined;
  connectTimeoutMs: number;
  connect: string | undefined;
}

/** How `verify` reads a target back: day files listed and read (engine/verify/target.ts), or a table summed. */
export type TargetReading = { reads: "day files"; template: string } | { reads: "table"; open(): Promise<TableReader> };

/** What a fleet's host sees of a job before it opens it (targets/postgres/fleet-peek.ts). */
export interface JobLook {
  /** Who holds the job's lock now (`4242 on "build-2" since ...`), undefined when nobody. */
  readonly holder: string | undefined;
  /** The job's last run as its database keeps it (JSON), undefined when none. */
  readonly lastRun: unknown;
}

export interface TargetKind<T extends JobTarget = JobTarget> {
  /** `kind` of its targets in a job's state. */
  readonly name: string;
  /** Whether -o names a target of this kind (the kinds are asked in the registry's order). */
  claims(output: string): boolean;
  /** Whether --table names its table (else --table is refused with it). */
  readonly takesTable: boolean;
  /** -o of this kind in the words of a message (`sqlite:PATH`). */
  readonly example: string;
  /** -o (and --table) read; a UsageError when they cannot go together. */
  parse(words: TargetWords, cwd: string): TargetSpec<T>;
  /** A target a state records, checked and with its kind's fields only; undefined when it is not one this kind writes. */
  check(target: JobTarget): T | undefined;
  /** The text an earlier adreport's state kept (the kind's `text`), read back; undefined when not this kind's. */
  fromText(text: string): T | undefined;
  /** The target in one text: what a job's id hashes (never changed), `state list` and messages show. */
  text(target: T): string;
  /**
   * How many write one target at once: `one` job at a time (day files: a lock per target beside the
   * job's, and several accounts need {profile}), or every account and job at once, each replacing its
   * own profile's rows (`per-profile`, a table).
   */
  readonly writers: "one" | "per-profile";
  /** The most accounts that write it at once (a SQLite file takes one writer at a time); else --account-concurrency's. */
  readonly accountsAtOnce?: number;
  /** Its metrics may grow (a table adds a column): they are not part of its job's id. */
  readonly grows: boolean;
  /**
   * Its jobs' locks hold across hosts (a server's own locks): several hosts may run one list of accounts
   * into it at once, a fleet, each account by one of them (engine/days/job-taken.ts).
   */
  readonly fleet?: boolean;
  /**
   * Where the hosts that write it share a key's pace (a fleet's): the ledger of key `fingerprint`
   * (state/pace-ledger.ts paceFingerprint), `alone` the host's own, what a run paces by when that fails;
   * `note` where it says why, when the operator can fix it.
   */
  paceLedger?(
    spec: TargetSpec<T>,
    fingerprint: string,
    connectTimeoutMs: number,
    alone: PaceLedger,
    note?: (text: string) => void,
  ): PaceLedger;
  /** A fleet's quick look at job `id` before a run opens anything for it; undefined when it cannot be had. */
  lookAtJob?(spec: TargetSpec<T>, id: string, connectTimeoutMs: number): Promise<JobLook | undefined>;
  /** `report --dry-run`'s words for it (a format is added by the caller) and its JSON. */
  describe(spec: TargetSpec<T>): { words: string; json: Record<string, unknown> };
  /** The run's writer; a driver is loaded only now. */
  open(spec: TargetSpec<T>, options: OpenOptions): Promise<OpenTarget>;
  /** What `verify` reads of a job's target. */
  reading(target: T, place: ReadPlace): TargetReading;
  /** The target as `report` flags (verify --repair runs the job with them); `db` as in ReadPlace. */
  words(target: T, db: string | undefined): { output: string; table?: string };
  /** Day files: the file of one day (verify --repair writes no pipe or device). */
  dayFile?(target: T, day: string): string;
  /**
   * A database target: where its jobs' state, last run and lock are kept, beside the data (the table
   * `adreport_jobs`, targets/table/jobs.ts). A kind without it keeps them in files.
   */
  jobDatabase?(target: T, place: JobDatabasePlace): JobDatabase;
  /** The database alone (`sqlite:/d/ads.db`, the URL without its password): what `state list` remembers of it. */
  databaseOf?(target: T): JobTarget;
  /** Day files: the folder beside them their jobs' state is kept in when it is there (`.adreport/` in their root). */
  stateBeside?(target: T): string;
}
