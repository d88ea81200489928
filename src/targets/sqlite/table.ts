/** A SQLite file's table as targets/table/ needs it; better-sqlite3 is loaded only when it is opened. */
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { driverWords } from "../table/failure";
import type { TableAccess } from "../table/target";

/** `path`: the database file as given (relative to the run's folder) or absolute, as a job keeps it. */
export function sqliteTable(choice: { path: string; table: string }): TableAccess {
  return {
    table: choice.table,
    where: choice.path,
    failureWords: driverWords,
    async engine(place) {
      const path = resolve(place.cwd, choice.path);
      // A device or a folder is no database file: SQLite would leave its journal beside it (/dev/full-journal).
      const found = await stat(path).catch(() => undefined);
      if (found && !found.isFile()) throw new Error("not a regular file (a database file is needed)");
      const { sqliteEngine } = await import("./engine");
      return sqliteEngine(path, choice.path, choice.table, place.sqliteAddon);
    },
    async reader(options) {
      const { sqliteReader } = await import("./reader");
      return sqliteReader(choice, options);
    },
  };
}
