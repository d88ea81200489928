/**
 * The kinds of job store (where a job's state, last run and lock live), one line each, as target kinds
 * are registered in targets/registry.ts. Today one: files in the config folder (or --state-file). A store
 * kept in the target's own database is a JobStore (state/job-store.ts) and a line here.
 */
import { fileJobStore } from "../../state/file-job-store";
import type { JobStore } from "../../state/job-store";
import { readTarget } from "../../targets/registry";

const JOB_STORES: readonly JobStore[] = [fileJobStore(readTarget)];

/** The store of that name; `files` (the config folder's) is every job's today. */
export function jobStore(name = "files"): JobStore {
  const store = JOB_STORES.find((s) => s.name === name);
  if (store === undefined) throw new Error(`no job store ${name}`);
  return store;
}
