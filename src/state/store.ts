/**
 * The state of incremental jobs: one JSON document per job (`<id>.json`, mode 0600, replaced atomically)
 * in the config folder's `state/`, or wherever --state-file says. It records the last exported day and the
 * ledger: for every day the job ever wrote, what it was (day-record.ts), which `adreport verify` checks the
 * output against. How the last run ended is kept beside it (`<id>.run.json`), so a failed run leaves the
 * state itself exactly as it was.
 */
import type { Stats } from "node:fs";
import { lstat } from "node:fs/promises";
import { join } from "node:path";
import { dayOfText } from "../core/calendar";
import { OutputError, UsageError } from "../core/errors";
import { DAY_FILE_FORMATS, type DayFileFormat } from "../core/formats";
import { reasonInWords } from "../io/errno-words";
import { readOptionalFile, writePrivateFile } from "../io/private-file";
import { type AutoLookbackState, isAutoLookback } from "./auto-lookback";
import { type DayRecord, isDayRecord } from "./day-record";
import { isJobIdentity, type JobIdentity, type TargetReader } from "./job";

export interface JobState {
  version: 1;
  id: string;
  job: JobIdentity;
  /** YYYY-MM-DD: every day up to this one has been exported. */
  lastDay: string;
  days: Record<string, DayRecord>;
  /** {date} files: how each day's file is written, so `verify` can read them and `verify --repair` write them. */
  write?: DayFileWrite;
  /** --lookback auto: the learned horizon and the decisions of the last runs (auto-lookback.ts). */
  autoLookback?: AutoLookbackState;
}

/**
 * How the export wrote its day files: its format and the CSV options (FormatOptions). `bom` and
 * `spreadsheet` change no row or sum read back: a byte-order mark is dropped where there is one, CRLF ends a
 * row as LF does, and the `'` that defuses a formula is only ever put before text, never before a metric.
 */
export interface DayFileWrite {
  format: DayFileFormat;
  delimiter: string;
  bom: boolean;
  spreadsheet: boolean;
}

function isDayFileWrite(value: unknown): value is DayFileWrite {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    (DAY_FILE_FORMATS as readonly unknown[]).includes(v.format) &&
    typeof v.delimiter === "string" &&
    typeof v.bom === "boolean" &&
    typeof v.spreadsheet === "boolean"
  );
}

export interface LastRun {
  /** When the run ended. */
  at: string;
  outcome: "ok" | "failed" | "nothing to do";
  message?: string;
  from?: string;
  to?: string;
  /** The figures below: absent in the record of an earlier adreport, which kept none of them. */
  run?: string;
  /** Who ran it: `4242 on "build-2"` (a fleet's run over accounts names it for an account another host did). */
  by?: string;
  started?: string;
  rows?: number;
  requests?: number;
  daysWritten?: number;
  daysChanged?: number;
  daysUnchanged?: number;
  /** Days this run found restated by the service (their rows or sums, or their bytes, differ from the ledger's). */
  restated?: string[];
  /** What changed in the job's shape with this run (`metrics clicks -> clicks,spending`). */
  schemaChanges?: string[];
  /** Waits for the service's rate limit or quota (retries' backoff aside): how many, how long in all. */
  waits?: number;
  waitedMs?: number;
  /** A run of `verify --repair` (its days are old ones, fetched again): no measure of how far back the service restates. */
  repair?: boolean;
  /** The run's --lookback, in days. */
  lookbackDays?: number;
  /** The runs before this one, newest first (RECENT_RUNS in all, this one included), each without its own. */
  earlier?: LastRun[];
}

/** How many runs a job's run record keeps (the last one and those before it): `adreport status` reads them. */
export const RECENT_RUNS = 30;

/**
 * Where a job's files are: its state, its last run, its lock. A store that keeps jobs by id (a database's
 * adreport_jobs) names them in words and sets `job`.
 */
export interface StatePaths {
  state: string;
  run: string;
  lock: string;
  job?: string;
}

export function pathsInFolder(folder: string, id: string): StatePaths {
  return pathsOfFile(join(folder, `${id}.json`));
}

export function pathsOfFile(file: string): StatePaths {
  const base = file.endsWith(".json") ? file.slice(0, -5) : file;
  return { state: file, run: `${base}.run.json`, lock: `${base}.lock` };
}

/** A YYYY-MM-DD that names a day of the calendar (not 2026-02-31). */
export function isRealDay(text: string): boolean {
  return dayOfText(text) !== undefined;
}

/** A day the state records that is no day: named with its place, and how to start the job again. */
function badDay(named: string, id: unknown, what: string, value: string): UsageError {
  const job = typeof id === "string" && /^[0-9a-f]{8}$/.test(id) ? id : "JOB";
  return new UsageError(`${named} records ${what} ${JSON.stringify(value)}, which is not a date`, {
    hint: `fix it by hand, or run: adreport state reset ${job} (the job starts again from --start)`,
  });
}

function parseState(text: string, path: string, readTarget: TargetReader): JobState {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`cannot read the state file ${path}: ${(error as Error).message}`, {
      hint: `fix it, or remove it to start the job again from --start (adreport state reset)`,
    });
  }
  return stateOfValue(value, `the state file ${path}`, readTarget);
}

/**
 * A state read from wherever its store keeps it, checked: `named` says where in a refusal (`the state file
 * PATH`, `the state of job ID in the table adreport_jobs of DB`). Its fields in the order adreport writes them.
 */
export function stateOfValue(value: unknown, named: string, readTarget: TargetReader): JobState {
  const v = value as Partial<JobState> | null;
  const valid =
    v !== null &&
    typeof v === "object" &&
    v.version === 1 &&
    // A job id is 8 hex digits (engine/days/job-id.ts): one edited into anything else would be printed as a
    // job's name (a line of its own in `status`) and name where its run record and lock are.
    typeof v.id === "string" &&
    /^[0-9a-f]{8}$/.test(v.id) &&
    typeof v.lastDay === "string" &&
    isJobIdentity(v.job) &&
    typeof v.days === "object" &&
    v.days !== null &&
    Object.values(v.days).every((record) => isDayRecord(record)) &&
    (v.write === undefined || isDayFileWrite(v.write)) &&
    (v.autoLookback === undefined || isAutoLookback(v.autoLookback));
  if (!valid) {
    throw new UsageError(`${named} is not in adreport's shape`, {
      hint: "remove it to start the job again from --start",
    });
  }
  // An earlier adreport's text read back here, once; edited by hand into no target adreport writes: refused
  // here, not as an internal error later.
  const target = readTarget(v.job?.target);
  const { version, id, lastDay, days, write, autoLookback } = v as JobState;
  const state = {
    version,
    id,
    job: { ...v.job, target },
    lastDay,
    days,
    ...(write ? { write } : {}),
    ...(autoLookback ? { autoLookback } : {}),
  } as JobState;
  if (target === undefined) {
    throw new UsageError(`${named} is not in adreport's shape: its output is neither {date} files nor a table`, {
      hint: "remove it to start the job again from --start",
    });
  }
  if (!isRealDay(state.lastDay)) throw badDay(named, state.id, "the last day", state.lastDay);
  const notADay = Object.keys(state.days).find((day) => !isRealDay(day));
  if (notADay !== undefined) throw badDay(named, state.id, "a day", notADay);
  return state;
}

/** `user`: the user running adreport (ctx.user), whose own the state file must be; undefined on Windows. */
/** `readTarget`: targets/registry.ts's, which knows the target kinds. */
export async function readState(
  path: string,
  user: { uid: number } | undefined,
  readTarget: TargetReader,
): Promise<JobState | undefined> {
  // Replacing a device or a link's target by rename would be far worse than refusing.
  const found = await lstat(path).catch(() => undefined);
  if (found && !found.isFile()) {
    throw new UsageError(`the state file ${path} is not a regular file`, {
      hint: "give --state-file a file of its own",
    });
  }
  if (found && user) checkPrivate(found, path, user.uid, "the state file");
  const text = await readOptionalFile(path);
  return text === undefined ? undefined : parseState(text, path, readTarget);
}

/**
 * adreport writes its state 0600 as its own user: a state file someone else owns or can write was made so
 * by someone else, who could move the last exported day and have days skipped without a word.
 */
function checkPrivate(found: Stats, path: string, uid: number, what: string): void {
  if (found.uid !== uid) {
    throw new UsageError(`${what} ${path} belongs to uid ${found.uid}, not to you (uid ${uid})`, {
      hint:
        what === "the state file"
          ? "give --state-file a file of your own, or remove it to start the job again from --start"
          : "remove it: the job's next run writes it again",
    });
  }
  if ((found.mode & 0o022) !== 0) {
    const mode = (found.mode & 0o777).toString(8).padStart(4, "0");
    throw new UsageError(`${what} ${path} is mode ${mode}: others can change it`, {
      hint: `chmod go-w ${path}, if its content is yours`,
    });
  }
}

export async function writeState(path: string, state: JobState): Promise<void> {
  try {
    await writePrivateFile(path, `${JSON.stringify(state, null, 2)}\n`);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === undefined ? String(error) : reasonInWords(error);
    throw new OutputError(`cannot write the state file ${path}: ${reason}`, {
      hint: "the days put in place so far are recorded in it up to the last window written; the next run repeats the rest",
      cause: error,
    });
  }
}

/**
 * `user`: when given, a record someone else owns or can write is refused as a state file is (`status` believes
 * what it says of the last run: one put there by someone else could hide a failed run).
 */
export async function readLastRun(path: string, user?: { uid: number }): Promise<LastRun | undefined> {
  if (user !== undefined) {
    const found = await lstat(path).catch(() => undefined);
    if (found !== undefined) checkPrivate(found, path, user.uid, "the run record");
  }
  const text = await readOptionalFile(path);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as LastRun;
  } catch {
    return undefined;
  }
}

export async function writeLastRun(path: string, run: LastRun): Promise<void> {
  await writePrivateFile(path, `${JSON.stringify(run)}\n`);
}
