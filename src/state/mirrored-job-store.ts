/**
 * A job kept in its database and mirrored in the config folder's files, as dlt keeps a pipeline's state in
 * its destination and its working folder: the database's copy is the job's (a run in a fresh container, or
 * on another host, finds it there); the files are the host's copy, written after it, and read only where
 * the database has none (an earlier adreport's job, or a database made again: its state is written back
 * there by `settle`, once, with a note). Locks: the files' (this host, as before) and the database's (every
 * host). Paths are the files' (what messages and `--dry-run` have always named), with the job's id.
 */
import type { JobStore } from "./job-store";
import type { JobState, StatePaths } from "./store";

export function mirroredJobStore(database: JobStore, files: JobStore): JobStore {
  const inDatabase = (paths: StatePaths, id = idOf(paths)) => database.pathsInFolder("", id);
  const merged = (primary: JobState[], mirror: JobState[]) => {
    const ids = new Set(primary.map((s) => s.id));
    return [...primary, ...mirror.filter((s) => !ids.has(s.id))].sort((a, b) => (a.id < b.id ? -1 : 1));
  };
  return {
    name: database.name,
    where: database.where,
    ...(database.target === undefined ? {} : { target: database.target }),
    paths: (place, id) => ({ ...files.paths(place, id), job: id }),
    pathsInFolder: (folder, id) => ({ ...files.pathsInFolder(folder, id), job: id }),
    async read(paths, user) {
      return (await database.read(inDatabase(paths), user)) ?? (await files.read(paths, user));
    },
    async write(paths, state) {
      await database.write(inDatabase(paths), state);
      await files.write(paths, state);
    },
    async readLastRun(paths, user) {
      return (await database.readLastRun(inDatabase(paths))) ?? (await files.readLastRun(paths, user));
    },
    async writeLastRun(paths, run) {
      await database.writeLastRun(inDatabase(paths), run);
      await files.writeLastRun(paths, run);
    },
    async forget(paths) {
      const kept = (await database.read(inDatabase(paths), undefined).catch(() => undefined)) !== undefined;
      if (kept) await database.forget(inDatabase(paths));
      await files.forget(paths).catch((error: unknown) => {
        if (!kept) throw error;
      });
    },
    async move(from, to) {
      const state = await database.read(inDatabase(from), undefined);
      const mirror = state ?? (await files.read(from, undefined));
      await files.move(from, to).catch(() => undefined);
      if (mirror === undefined) return;
      if (state !== undefined) await database.move(inDatabase(from), inDatabase(to));
      else await database.write(inDatabase(to), { ...mirror, id: idOf(to) });
    },
    async lock(paths, beside) {
      const mine = await files.lock(paths, beside);
      if (!mine.ok || beside !== undefined) return mine;
      const theirs = await database.lock(inDatabase(paths)).catch(async (error: unknown) => {
        await mine.release();
        throw error;
      });
      if (!theirs.ok) {
        await mine.release();
        return theirs;
      }
      return {
        ...theirs,
        release: async () => {
          await theirs.release();
          await mine.release();
        },
      };
    },
    // This host's runs take the files' lock too: a holder on another host is not seen from here.
    lockHolder: (paths) => files.lockHolder(paths),
    notStarted: (folder) => files.notStarted(folder),
    async writing(folder, user, target, same) {
      return merged(
        await database.writing(folder, user, target, same),
        await files.writing(folder, user, target, same),
      );
    },
    async list(folder, user, unreadable) {
      return merged(await database.list(folder, user, unreadable), await files.list(folder, user, unreadable));
    },
    async settle(paths, user, note) {
      if ((await database.read(inDatabase(paths), user)) !== undefined) return;
      const mirror = await files.read(paths, user);
      if (mirror === undefined) return;
      await database.write(inDatabase(paths), mirror);
      const run = await files.readLastRun(paths);
      if (run !== undefined) await database.writeLastRun(inDatabase(paths), run);
      note(
        `job ${mirror.id}: its state is now kept in ${database.where} too (from ${paths.state}, which stays as this host's copy)`,
      );
    },
    close: () => database.close(),
  };
}

function idOf(paths: StatePaths): string {
  if (paths.job === undefined) throw new Error(`a mirrored job store asked for ${paths.state}`);
  return paths.job;
}
