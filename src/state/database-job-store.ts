/**
 * A job store in the target's own database, beside the data (as `adreport_loads`): one row per job in
 * `adreport_jobs` (state/job-table.ts, provided by the table kind), so a run in a fresh container finds
 * the state where the data is. Its lock is the database's (PostgreSQL: a session advisory lock, gone with
 * the connection of a host that dies). The connection is opened on first use and held until close().
 */
import { UsageError } from "../core/errors";
import { shellWord } from "../core/shell-word";
import type { JobTarget, TargetReader } from "./job";
import type { JobStore } from "./job-store";
import type { JobDatabase, JobRow, JobTable } from "./job-table";
import { type JobState, type LastRun, type StatePaths, stateOfValue } from "./store";

export function databaseJobStore(
  database: JobDatabase,
  kinds: { readTarget: TargetReader; targetText: (target: JobTarget) => string },
): JobStore {
  const { where } = database;
  let opened: Promise<JobTable> | undefined;
  const table = () => {
    opened ??= database.open();
    return opened;
  };
  const named = (id: string) => `the state of job ${id} in ${where}`;
  const pathsOf = (id: string): StatePaths => ({
    state: `job ${id} in ${where}`,
    run: `job ${id} in ${where}`,
    lock: `the lock of job ${id} in ${where}`,
    job: id,
  });
  const idOf = (paths: StatePaths): string => {
    if (paths.job === undefined) throw new Error(`a database job store asked for ${paths.state}`);
    return paths.job;
  };
  const resetHint = (id: string) =>
    `forget it to start the job again from --start: adreport state reset ${id} --target ${shellWord(database.database)}`;
  const stateOf = (row: JobRow): JobState | undefined => {
    if (row.state === null || row.state === undefined) return undefined;
    try {
      return stateOfValue(row.state, named(row.id), kinds.readTarget);
    } catch (error) {
      // A row edited by hand: the files' hint (state reset JOB) finds nothing from a host that does not know the database.
      if (!(error instanceof UsageError)) throw error;
      throw new UsageError(error.message, { hint: `fix it by hand, or ${resetHint(row.id)}` });
    }
  };
  const usable = async (unreadable: (error: Error) => void, target?: JobTarget): Promise<JobState[]> => {
    const states: JobState[] = [];
    const rows = await (await table()).all(target === undefined ? undefined : kinds.targetText(target));
    for (const row of rows) {
      try {
        const state = stateOf(row);
        if (state !== undefined) states.push(state);
      } catch (error) {
        if (!(error instanceof UsageError)) throw error;
        unreadable(error);
      }
    }
    return states;
  };
  return {
    name: "database",
    where,
    target: database.database,
    paths: (_place, id) => pathsOf(id),
    pathsInFolder: (_folder, id) => pathsOf(id),
    async read(paths) {
      const id = idOf(paths);
      const row = await (await table()).get(id);
      const state = row && stateOf(row);
      if (state !== undefined && state.id !== id) {
        throw new UsageError(`${named(id)} holds job ${state.id}: edited by hand or by another program`, {
          hint: resetHint(id),
        });
      }
      return state;
    },
    async write(paths, state) {
      await (await table()).putState(idOf(paths), kinds.targetText(state.job.target), state);
    },
    async readLastRun(paths) {
      const row = await (await table()).get(idOf(paths));
      const run = row?.lastRun;
      return typeof run === "object" && run !== null ? (run as LastRun) : undefined;
    },
    async writeLastRun(paths, run) {
      const id = idOf(paths);
      const t = await table();
      const row = await t.get(id);
      const state = row && stateOf(row);
      await t.putLastRun(id, state ? kinds.targetText(state.job.target) : "", run);
    },
    async forget(paths) {
      if (!(await (await table()).remove(idOf(paths)))) throw new UsageError(`no job ${idOf(paths)} in ${where}`);
    },
    async move(from, to) {
      const t = await table();
      const row = await t.get(idOf(from));
      const state = row && stateOf(row);
      if (row === undefined || state === undefined) return;
      const target = kinds.targetText(state.job.target);
      await t.putState(idOf(to), target, { ...state, id: idOf(to) });
      if (row.lastRun !== null && row.lastRun !== undefined) await t.putLastRun(idOf(to), target, row.lastRun);
      await t.remove(idOf(from));
    },
    async lock(paths, beside) {
      // A second lock beside the job's is for targets one job writes at a time ({date} files), which keep no
      // state in a database.
      if (beside !== undefined) throw new Error(`a database job store asked for the lock ${beside}`);
      return (await table()).lock(idOf(paths));
    },
    // Who holds a database's lock is known only by trying it, which would refuse a run starting then.
    lockHolder: async () => undefined,
    // A first run that failed before its state was written left its record in this host's files only.
    notStarted: async () => [],
    async writing(_folder, _user, target, same) {
      const states = await usable(() => undefined, target);
      return states.filter((state) => same(state.job.target));
    },
    list: (_folder, _user, unreadable) => usable(unreadable),
    async close() {
      const t = opened;
      opened = undefined;
      if (t !== undefined) await (await t.catch(() => undefined))?.close();
    },
  };
}
