/**
 * `--output duckdb:PATH`: the table in a DuckDB file (created if missing), filled in one transaction by
 * DuckDB's Appender, page by page (DuckDB writes full row groups of a big transaction to the file as they
 * fill: memory does not grow with the report). Spending is DECIMAL(20,6), ids and counts BIGINT, dates
 * DATE (TIMESTAMP in UTC for hours). No index: DuckDB holds an index whole in memory and updates it row by
 * row; the min-max of each row group already lets the delete of a run's days skip the others.
 */
import { quoteName, type TableLayout } from "../table/columns";
import type { TableEngine, TableInserter } from "../table/engine";
import { DUCKDB_LOADS_DDL, LOADS_COLUMNS, LOADS_TABLE, loadValues } from "../table/loads";
import { BOOKKEEPING, RUN_ID_COLUMN } from "../table/shape";
import { rowWriters } from "./append";
import { tableColumns, viewNamed } from "./catalog";
import { duckdbDialect } from "./dialect";
import { duckdbDriver } from "./driver";
import { openDatabase } from "./open";

const FLUSH_ROWS = 20_000;

export async function duckdbEngine(path: string, shownPath: string, table: string): Promise<TableEngine> {
  const api = await duckdbDriver();
  const database = await openDatabase(path, "write");
  const { connection } = database;
  const name = quoteName(table);
  let open = false;
  return {
    description: `the table ${table} in ${shownPath}`,
    dialect: duckdbDialect,
    columns: (of = table) => tableColumns(connection, of),
    mayAlter: async () => true,
    nameHeldBy: async () => ((await viewNamed(connection, table)) ? "a view" : undefined),
    async begin(layout: TableLayout) {
      await connection.run("BEGIN TRANSACTION");
      open = true;
      const columns = [
        ...layout.columns.map((c) => `${quoteName(c.name)} ${duckdbDialect.columnType(c.kind, layout.hourly)}`),
        ...BOOKKEEPING.map((c) => `${c.name} ${duckdbDialect.columnType(c.use, layout.hourly)} NOT NULL`),
        `${RUN_ID_COLUMN} VARCHAR`,
      ];
      await connection.run(`CREATE TABLE IF NOT EXISTS ${name} (${columns.join(", ")})`);
    },
    async addColumns(columns) {
      for (const column of columns) {
        await connection.run(`ALTER TABLE ${name} ADD COLUMN ${quoteName(column.name)} ${column.type}`);
      }
      return columns.map((c) => c.name);
    },
    async deleteDays(layout: TableLayout, from: string, to: string) {
      await connection.run(
        `DELETE FROM ${name} WHERE profile = $1 AND query_scope = $2
           AND "date" >= CAST($3 AS DATE) AND "date" < CAST($4 AS DATE) + INTERVAL 1 DAY`,
        [layout.profile, layout.scope, from, to],
      );
    },
    async startInsert(layout: TableLayout, exportedAt: Date, runId: string | undefined): Promise<TableInserter> {
      const found = (await tableColumns(connection, table)) ?? [];
      const tail = new Map([
        ["profile", layout.profile],
        ["query_scope", layout.scope],
        ["exported_at", exportedAt.toISOString()],
        ...(runId === undefined ? [] : [[RUN_ID_COLUMN, runId] as [string, string]]),
      ]);
      const writers = rowWriters(api, layout, found, tail, exportedAt);
      const appender = await connection.createAppender(table);
      let closed = false;
      let unflushed = 0;
      return {
        async write(rows) {
          for (const row of rows) {
            for (const write of writers) write(appender, row);
            appender.endRow();
          }
          // The appender's rows handed to the transaction now and then: it holds less of them at once
          // (bench/duckdb-alone.mjs, 1M rows: 135 MB with memory_limit 16MB, against 185 MB without).
          unflushed += rows.length;
          if (unflushed >= FLUSH_ROWS) {
            appender.flushSync();
            unflushed = 0;
          }
        },
        async end() {
          if (closed) return;
          closed = true;
          // Flushes what is buffered into the transaction (not committed yet).
          appender.closeSync();
        },
      };
    },
    async writeLoads(of, loads) {
      await connection.run(DUCKDB_LOADS_DDL);
      const insert = await connection.prepare(
        `INSERT INTO ${LOADS_TABLE} (${LOADS_COLUMNS.join(", ")}) VALUES (${LOADS_COLUMNS.map((_, i) => `$${i + 1}`).join(", ")})`,
      );
      try {
        for (const values of loadValues(of, loads)) {
          // As text, each cast by DuckDB to its column's type (a number bound as a double would not be a BIGINT).
          insert.bind(
            values.map(String),
            values.map(() => api.VARCHAR),
          );
          await insert.run();
        }
      } finally {
        insert.destroySync();
      }
      return true;
    },
    async commit() {
      await connection.run("COMMIT");
      open = false;
    },
    async rollback() {
      if (open) await connection.run("ROLLBACK");
      open = false;
    },
    abortNow() {
      // A statement under way ends now; the transaction is never committed, so the file keeps what it had.
      connection.interrupt();
    },
    async close() {
      if (open) await connection.run("ROLLBACK").catch(() => undefined);
      open = false;
      database.close();
    },
  };
}
