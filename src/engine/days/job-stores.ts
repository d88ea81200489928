/**
 * The kinds of job store (where a job's state, last run and lock live), as target kinds are registered in
 * targets/registry.ts, and the choice of one for a job:
 * - --state-file FILE: that file, always (files);
 * - a database target whose kind keeps jobs (SQLite, PostgreSQL: `jobDatabase`): the table adreport_jobs
 *   in that database, beside the data, so a run in a fresh container finds its state;
 * - {date} files whose root holds a `.adreport/` folder: the files there (a mounted volume carries them);
 * - else files in the config folder's state/.
 * The last two are mirrored in the config folder's files (state/mirrored-job-store.ts): the host keeps its
 * copy, and a job whose state an earlier adreport kept only there is written to its database or folder
 * once, under its lock (engine/days/incremental-job.ts).
 */
import { existsSync } from "node:fs";
import { databaseJobStore } from "../../state/database-job-store";
import { fileJobStore } from "../../state/file-job-store";
import type { JobTarget } from "../../state/job";
import type { JobStore } from "../../state/job-store";
import { knownDatabases, rememberDatabase } from "../../state/known-databases";
import { mirroredJobStore } from "../../state/mirrored-job-store";
import { holdLock } from "../../targets/held-lock";
import type { JobDatabasePlace } from "../../targets/kind";
import { kindOf, kindOfOutput, readTarget, sameTarget, targetText } from "../../targets/registry";

const FILES = fileJobStore(readTarget);

/** The config folder's files (or --state-file): every job's before this build, and a {date} job's still. */
export function jobStore(name = "files"): JobStore {
  if (name !== FILES.name) throw new Error(`no job store ${name}`);
  return FILES;
}

/** What choosing a job's store needs: its target, --state-file, and how its database is reached. */
export interface JobWhere extends JobDatabasePlace {
  target: JobTarget;
  stateFile: string | undefined;
}

/** The store a job's state lives in (see above); to be closed after use. */
export function jobStoreFor(where: JobWhere): JobStore {
  if (where.stateFile !== undefined) return FILES;
  const kind = kindOf(where.target);
  if (kind.jobDatabase !== undefined) return mirroredJobStore(databaseStore(where.target, where), FILES);
  const beside = kind.stateBeside?.(where.target);
  if (beside !== undefined && existsSync(beside)) {
    return mirroredJobStore(
      fileJobStore(readTarget, beside, (path) => holdLock(path, where.sqliteAddon)),
      FILES,
    );
  }
  return FILES;
}

/** The jobs' store of the database a target names (`state --target`, and the databases a folder knows). */
export function databaseStore(target: JobTarget, place: JobDatabasePlace): JobStore {
  const kind = kindOf(target);
  if (kind.jobDatabase === undefined) throw new Error(`no job database for ${target.kind}`);
  return databaseJobStore(kind.jobDatabase(target, place), { readTarget, targetText });
}

/**
 * The store `state --target OUTPUT` names (-o's words: a database's, or {date} files' `.adreport/`);
 * undefined when the words name no kind that keeps jobs.
 */
export function storeOfOutput(output: string, place: Omit<JobDatabasePlace, "connect">): JobStore | undefined {
  const kind = kindOfOutput(output);
  const spec = kind?.parse({ output }, place.cwd);
  return spec && storeOfTarget(spec.target, { ...place, connect: spec.given });
}

/** The store keeping the jobs of a target's database, or of its {date} files' folder. */
export function storeOfTarget(target: JobTarget, place: JobDatabasePlace): JobStore | undefined {
  const kind = kindOf(target);
  if (kind.jobDatabase !== undefined) return databaseStore(target, place);
  const beside = kind.stateBeside?.(target);
  return beside === undefined
    ? undefined
    : fileJobStore(readTarget, beside, (path) => holdLock(path, place.sqliteAddon));
}

/** The database stores whose jobs were run from this config folder (state/databases.json). */
export async function knownStores(folder: string, place: JobDatabasePlace): Promise<JobStore[]> {
  return (await knownDatabases(folder)).flatMap((database) => {
    const target = readTarget({ ...database, table: "" });
    return target === undefined || kindOf(target).jobDatabase === undefined ? [] : [databaseStore(target, place)];
  });
}

/** Remembers that a job of this config folder keeps its state in the target's database. */
export async function rememberStore(folder: string, target: JobTarget): Promise<void> {
  const database = kindOf(target).databaseOf?.(target);
  if (database === undefined) return;
  await rememberDatabase(folder, database, sameTarget).catch(() => undefined);
}
