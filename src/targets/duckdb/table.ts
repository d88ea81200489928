/** A DuckDB file's table as targets/table/ needs it; @duckdb/node-api is loaded only when it is opened. */
import { resolve } from "node:path";
import type { TableAccess } from "../table/target";
import { duckdbWords } from "./failure";

/** `path`: the database file as given (relative to the run's folder) or absolute, as a job keeps it. */
export function duckdbTable(choice: { path: string; table: string }): TableAccess {
  return {
    table: choice.table,
    where: choice.path,
    failureWords: duckdbWords,
    async engine(place) {
      const path = resolve(place.cwd, choice.path);
      const { checkDatabasePath } = await import("./open");
      await checkDatabasePath(path, choice.path);
      const { duckdbEngine } = await import("./engine");
      return duckdbEngine(path, choice.path, choice.table);
    },
    async reader(options) {
      const { duckdbReader } = await import("./reader");
      return duckdbReader(choice, options);
    },
  };
}
