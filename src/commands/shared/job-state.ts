/**
 * A job named on the command line (its id, or --state-file), where its state lives, and its state: for
 * `state` and `verify`. An id is looked for in the config folder's files, then in the databases this
 * folder's runs keep jobs in (state/databases.json), then where `--target` (verify: --db) names: a
 * database's adreport_jobs, or the `.adreport/` folder beside {date} files.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { UsageError } from "../../core/errors";
import { printable } from "../../core/printable";
import { jobStore, jobStoreFor, knownStores, storeOfOutput } from "../../engine/days/job-stores";
import type { JobTarget } from "../../state/job";
import type { JobStore } from "../../state/job-store";
import { type JobState, pathsInFolder, pathsOfFile, type StatePaths } from "../../state/store";
import type { Context } from "../context";
import { stateFolder } from "./state-folder";

/** A job's places and the store keeping them (to be closed when the command is done with it). */
export type KeptPaths = StatePaths & { readonly store: JobStore };

/** Reaching a database: the command's own connection timeout (a run's is --timeout). */
const CONNECT_MS = 30_000;

/** The store `--target OUTPUT` names (-o's words: a database, or a {date} template); refused when none keeps jobs. */
export function targetStore(ctx: Context, output: string): JobStore {
  const store = storeOfOutput(output, { cwd: ctx.cwd, sqliteAddon: ctx.sqliteAddon(), connectTimeoutMs: CONNECT_MS });
  if (store === undefined) {
    throw new UsageError(`--target ${JSON.stringify(printable(output.slice(0, 80)))} names no place that keeps jobs`, {
      hint: "name a database (sqlite:PATH, postgres://...) or a {date} template whose root holds .adreport/",
    });
  }
  return store;
}

/**
 * Every store a command looks in: the databases the config folder knows, --target's (`named`, whose
 * failure is the command's), then the folder's files.
 */
export async function storesToSearch(
  ctx: Context,
  target: string | undefined,
): Promise<{ stores: JobStore[]; named: JobStore | undefined }> {
  const place = { cwd: ctx.cwd, sqliteAddon: ctx.sqliteAddon(), connectTimeoutMs: CONNECT_MS, connect: target };
  const known = await knownStores(stateFolder(ctx), place);
  const named = target === undefined ? undefined : targetStore(ctx, target);
  const stores = known.filter((store) => store.where !== named?.where);
  for (const store of known) if (!stores.includes(store)) await store.close();
  // The databases first: where a job is in one and in the files, the database's is the job's.
  return { stores: [...stores, ...(named ? [named] : []), jobStore()], named };
}

export async function pathsOf(
  ctx: Context,
  job: string | undefined,
  stateFile: string | undefined,
  target?: string,
): Promise<KeptPaths> {
  if (stateFile !== undefined) {
    if (job !== undefined) throw new UsageError("name a job or give --state-file, not both");
    return { ...pathsOfFile(resolve(ctx.cwd, stateFile)), store: jobStore() };
  }
  if (job === undefined) throw new UsageError("which job? name its id (adreport state list shows them)");
  const id = job.trim().toLowerCase();
  if (!/^[0-9a-f]{8}$/.test(id)) {
    throw new UsageError(`${JSON.stringify(printable(job.slice(0, 40)))} is not a job id (8 hex digits)`, {
      hint: "adreport state list shows the jobs",
    });
  }
  const folder = stateFolder(ctx);
  const files = { ...pathsInFolder(folder, id), store: jobStore() };
  // In the config folder: kept there alone, or this host's copy of a job its database keeps (whose store it is then).
  const mirror = existsSync(files.state)
    ? await jobStore()
        .read(files, ctx.user)
        .catch(() => undefined)
    : undefined;
  if (mirror !== undefined) return keptBy(ctx, mirror.job.target, id, target);
  if (existsSync(files.state)) return files;
  const { stores, named } = await storesToSearch(ctx, target);
  let found: JobState | undefined;
  let failure: unknown;
  let unreadable: KeptPaths | undefined;
  for (const store of stores) {
    if (found === undefined && store !== jobStore()) {
      // A database that cannot be read is passed over for the others; if none has the job, its failure is the answer.
      const paths = store.paths({ cwd: ctx.cwd, stateFolder: folder, stateFile: undefined }, id);
      found = await store.read(paths, ctx.user).catch((error: unknown) => {
        if (store === named) failure = error;
        else failure ??= error;
        // A row there that is not a state (edited by hand): `state reset` may still forget it, so it is the job's place.
        if (error instanceof UsageError && store.name === "database") unreadable ??= { ...paths, store };
        return undefined;
      });
    }
    if (unreadable?.store !== store) await store.close();
  }
  if (found !== undefined) {
    await unreadable?.store.close();
    return keptBy(ctx, found.job.target, id, target);
  }
  if (unreadable !== undefined) return unreadable;
  if (failure !== undefined) throw failure;
  return files;
}

/** The job's places in the store its runs keep it in (its database, mirrored in the config folder's files). */
function keptBy(ctx: Context, jobTarget: JobTarget, id: string, target: string | undefined): KeptPaths {
  const store = jobStoreFor({
    target: jobTarget,
    stateFile: undefined,
    cwd: ctx.cwd,
    sqliteAddon: ctx.sqliteAddon(),
    connectTimeoutMs: CONNECT_MS,
    connect: target,
  });
  return { ...store.paths({ cwd: ctx.cwd, stateFolder: stateFolder(ctx), stateFile: undefined }, id), store };
}

export async function stateAt(ctx: Context, paths: KeptPaths, job: string | undefined): Promise<JobState> {
  const state = await paths.store.read(paths, ctx.user);
  if (!state) {
    throw new UsageError(job !== undefined ? `no job ${printable(job)}` : `no state in ${paths.state}`, {
      hint: "adreport state list shows the jobs (a job kept in a database: add --target DATABASE)",
    });
  }
  return state;
}
