/** A DuckDB table read for `verify` (targets/table/reader.ts says what is read): the file opened read-only. */
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
import { tableColumns } from "./catalog";
import { duckdbDialect } from "./dialect";
import { checkDatabasePath, openDatabase } from "./open";

export async function duckdbReader(
  choice: { path: string; table: string },
  options: ReaderOptions,
): Promise<TableReader> {
  const description = `the table ${choice.table} in ${choice.path}`;
  const path = resolve(options.cwd, choice.path);
  const found = await stat(path).catch(() => undefined);
  if (found === undefined || (await checkDatabasePath(path, choice.path)) === "none") {
    return { description, ...NOTHING, missing: async () => `no database file ${choice.path}` };
  }
  const { connection, close } = await openDatabase(path, "read");
  const layout = tableLayout(options.request, options.profile);
  return {
    description,
    async missing() {
      return (await tableColumns(connection, choice.table)) === undefined
        ? `no table ${choice.table} in ${choice.path}`
        : undefined;
    },
    async daySums(from: string, to: string): Promise<DaySums> {
      const columns = await tableColumns(connection, choice.table);
      if (columns === undefined) return new Map();
      const has = new Set(columns.map((c) => c.name));
      const select = [`strftime(CAST("date" AS DATE), '%Y-%m-%d')`, "count(*)", ...sumsOf(duckdbDialect, layout, has)];
      const result = await connection.runAndReadAll(
        `SELECT ${select.join(", ")} FROM ${quoteName(choice.table)}
          WHERE profile = $1 AND query_scope = $2
            AND "date" >= CAST($3 AS DATE) AND "date" < CAST($4 AS DATE) + INTERVAL 1 DAY
          GROUP BY 1 ORDER BY 1`,
        [layout.profile, layout.scope, from, to],
      );
      return collect(result.getRows() as unknown[][], metricNames(layout, has));
    },
    close: async () => close(),
  };
}
