/** A SQLite table read for `verify` (targets/table/reader.ts says what is read): opened read-only. */
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { quoteName, tableLayout } from "../table/columns";
import {
  collect,
  type DaySums,
  metricNames,
  NOTHING,
  type ReaderOptions,
  sumsOf,
  type TableReader,
} from "../table/reader";
import { sqliteDialect } from "./dialect";

export async function sqliteReader(
  choice: { path: string; table: string },
  options: ReaderOptions,
): Promise<TableReader> {
  const description = `the table ${choice.table} in ${choice.path}`;
  const path = resolve(options.cwd, choice.path);
  const found = await stat(path).catch(() => undefined);
  if (found === undefined) {
    return { description, ...NOTHING, missing: async () => `no database file ${choice.path}` };
  }
  if (!found.isFile()) throw new Error("not a regular file (a database file is needed)");
  const { default: Database } = await import("better-sqlite3");
  const addon = options.sqliteAddon ? { nativeBinding: options.sqliteAddon as unknown as string } : {};
  const db = new Database(path, { readonly: true, fileMustExist: true, timeout: 10_000, ...addon });
  const layout = tableLayout(options.request, options.profile);
  return {
    description,
    async missing() {
      const columns = db.prepare("SELECT name FROM pragma_table_info(?)").pluck().all(choice.table) as string[];
      return columns.length === 0 ? `no table ${choice.table} in ${choice.path}` : undefined;
    },
    async daySums(from: string, to: string): Promise<DaySums> {
      const columns = db.prepare("SELECT name FROM pragma_table_info(?)").pluck().all(choice.table) as string[];
      if (columns.length === 0) return new Map();
      const has = new Set(columns);
      const select = [`substr("date", 1, 10)`, "count(*)", ...sumsOf(sqliteDialect, layout, has)];
      const rows = db
        .prepare(
          `SELECT ${select.join(", ")} FROM ${quoteName(choice.table)}
            WHERE profile = ? AND query_scope = ? AND "date" >= ? AND "date" <= ? GROUP BY 1 ORDER BY 1`,
        )
        .raw()
        .all(layout.profile, layout.scope, from, `${to}~`) as unknown[][];
      return collect(rows, metricNames(layout, has));
    },
    close: async () => {
      db.close();
    },
  };
}
