/**
 * The job store adreport has always had: a job's state as `<id>.json` (its last run `<id>.run.json`, its
 * lock `<id>.lock`) in the config folder's `state/`, or wherever --state-file says (state/store.ts). The
 * same files in a folder of their own (`fixed`: the `.adreport/` beside a job's {date} files, so a mounted
 * volume carries them) are the store `files beside`.
 */
import { readdir, readFile, rename, unlink } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { UsageError } from "../core/errors";
import { type LockResult, lockHolder, takeLock } from "../io/lock-file";
import type { TargetReader } from "./job";
import type { JobStore } from "./job-store";
import { type JobState, pathsInFolder, pathsOfFile, readLastRun, readState, writeLastRun, writeState } from "./store";

const STATE_NAME = /^[0-9a-f]{8}\.json$/;
const RUN_NAME = /^([0-9a-f]{8})\.run\.json$/;

/** `readTarget`: targets/registry.ts's, which reads a state's target (state/ knows no target kind). */
/** A lock the kernel holds for the process (targets/held-lock.ts), or says who holds it. */
export type HeldLock = (path: string) => Promise<LockResult & { hint?: string }>;

/**
 * `fixed`: a folder of its own (`.adreport/` on a volume other hosts and containers mount), locked with
 * `held` (the kernel's lock) so that a run killed -9 under another host name leaves none behind; the config
 * folder's locks are pid files, as before.
 */
export function fileJobStore(readTarget: TargetReader, fixed?: string, held?: HeldLock): JobStore {
  const folderOf = (folder: string) => fixed ?? folder;
  const store: JobStore = {
    name: fixed === undefined ? "files" : "files beside",
    where: fixed ?? "the config folder's state/",
    paths: (place, id) =>
      place.stateFile !== undefined
        ? pathsOfFile(resolve(place.cwd, place.stateFile))
        : pathsInFolder(folderOf(place.stateFolder), id),
    pathsInFolder: (folder, id) => pathsInFolder(folderOf(folder), id),
    read: (paths, user) => readState(paths.state, user, readTarget),
    write: (paths, state) => writeState(paths.state, state),
    readLastRun: (paths, user) => readLastRun(paths.run, user),
    writeLastRun: (paths, run) => writeLastRun(paths.run, run),
    async forget(paths) {
      await unlink(paths.state);
      await unlink(paths.run).catch(() => undefined);
    },
    async move(from, to) {
      await rename(from.state, to.state);
      await rename(from.run, to.run).catch(() => undefined);
    },
    async lock(paths, beside) {
      const path = beside === undefined ? paths.lock : join(dirname(paths.lock), `${beside}.lock`);
      return { ...(await (held === undefined ? takeLock(path) : held(path))), path };
    },
    // A kernel's lock is known only by trying it, which would refuse a run starting then.
    lockHolder: async (paths) => (held === undefined ? lockHolder(paths.lock) : undefined),
    async writing(given, user, target, same) {
      const folder = folderOf(given);
      // Read in full only when its text names every field of the target (its kind's, or an earlier text): a folder of many jobs with long
      // ledgers is read, not parsed (a state that cannot be used is no owner here; `state list` names it).
      const needles = Object.entries(target)
        .filter(([field]) => field !== "kind")
        .map(([, value]) => JSON.stringify(value).slice(1, -1));
      const names = await readdir(folder).catch(() => [] as string[]);
      const states: JobState[] = [];
      for (const name of names.filter((n) => STATE_NAME.test(n))) {
        const path = join(folder, name);
        const text = await readFile(path, "utf8").catch(() => "");
        if (!needles.every((needle) => text.includes(needle))) continue;
        const state = await readState(path, user, readTarget).catch(() => undefined);
        if (state !== undefined && same(state.job.target)) states.push(state);
      }
      return states;
    },
    async notStarted(given) {
      const folder = folderOf(given);
      const names = await readdir(folder).catch(() => [] as string[]);
      const states = new Set(names.filter((n) => STATE_NAME.test(n)));
      return names
        .map((name) => RUN_NAME.exec(name)?.[1])
        .filter((id): id is string => id !== undefined && !states.has(`${id}.json`))
        .sort();
    },
    async list(given, user, unreadable) {
      const folder = folderOf(given);
      let names: string[];
      try {
        names = await readdir(folder);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
        throw error;
      }
      const states: JobState[] = [];
      for (const name of names.filter((n) => STATE_NAME.test(n)).sort()) {
        try {
          const state = await readState(join(folder, name), user, readTarget);
          if (state) states.push(state);
        } catch (error) {
          // One corrupt job must not hide the others, nor its own id, which `state reset` needs.
          if (!(error instanceof UsageError)) throw error;
          unreadable(error);
        }
      }
      return states;
    },
    close: async () => undefined,
  };
  return store;
}
