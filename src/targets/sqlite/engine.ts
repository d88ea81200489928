/**
 * `--output sqlite:PATH`: the table in an SQLite file (created if missing), filled in one transaction with
 * one prepared insert. Spending is NUMERIC (SQLite keeps it as an 8-byte float, exact to the micro for any
 * amount below 9 billion); dates are ISO 8601 text.
 */
import Database from "better-sqlite3";
import { quoteName, type TableLayout } from "../table/columns";
import type { TableEngine, TableInserter } from "../table/engine";
import { LOADS_COLUMNS, LOADS_TABLE, loadValues, SQLITE_LOADS_DDL } from "../table/loads";
import { BOOKKEEPING, DAYS_INDEX_COLUMNS, type FoundColumn, RUN_ID_COLUMN } from "../table/shape";
import { sqliteDialect } from "./dialect";

const BATCH = 100;

function fill(
  into: Array<string | number | null>,
  at: number,
  row: ReadonlyArray<string | number | null>,
  tail: ReadonlyArray<string>,
): void {
  let k = at;
  for (const value of row) into[k++] = value;
  for (const value of tail) into[k++] = value;
}

/**
 * `wanted`, or wanted_2, _3, ...: the first name nothing in the file holds. A table renamed by hand keeps its
 * index's name, which would otherwise be taken for this table's (IF NOT EXISTS: no index) or refuse it.
 */
function freeIndexName(db: Database.Database, wanted: string): string {
  const taken = db.prepare("SELECT 1 FROM sqlite_master WHERE lower(name) = lower(?)");
  for (let n = 1; ; n += 1) {
    const name = n === 1 ? wanted : `${wanted}_${n}`;
    if (taken.get(name) === undefined) return name;
  }
}

export function sqliteEngine(path: string, shownPath: string, table: string, addon: object | undefined): TableEngine {
  const db = new Database(path, { timeout: 10_000, ...(addon ? { nativeBinding: addon as unknown as string } : {}) });
  db.pragma("journal_mode = WAL");
  db.pragma("cache_size = -65536"); // 64 MB of pages: a big run's inserts and deletes stay in memory
  const name = quoteName(table);
  let open = false;
  let pendingIndex = false;
  return {
    description: `the table ${table} in ${shownPath}`,
    dialect: sqliteDialect,
    async columns(of = table) {
      const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(of);
      if (exists === undefined) return undefined;
      return db.prepare("SELECT name, type FROM pragma_table_info(?) ORDER BY cid").all(of) as FoundColumn[];
    },
    mayAlter: async () => true,
    async nameHeldBy() {
      // Tables, indexes and views share one namespace, without regard to case.
      const found = db
        .prepare("SELECT type FROM sqlite_master WHERE lower(name) = lower(?) AND type IN ('index', 'view')")
        .get(table) as { type: string } | undefined;
      if (found === undefined) return undefined;
      return found.type === "index" ? "an index" : "a view";
    },
    async begin(layout: TableLayout) {
      db.exec("BEGIN IMMEDIATE");
      open = true;
      const columns = [
        ...layout.columns.map((c) => `${quoteName(c.name)} ${sqliteDialect.columnType(c.kind, layout.hourly)}`),
        ...BOOKKEEPING.map((c) => `${c.name} ${sqliteDialect.columnType(c.use, layout.hourly)} NOT NULL`),
        `${RUN_ID_COLUMN} TEXT`,
      ];
      const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table);
      db.exec(`CREATE TABLE IF NOT EXISTS ${name} (${columns.join(", ")})`);
      // A new table gets its index at commit: built once from sorted rows, instead of row by row in random order.
      pendingIndex = exists === undefined;
    },
    async addColumns(columns) {
      for (const column of columns) db.exec(`ALTER TABLE ${name} ADD COLUMN ${quoteName(column.name)} ${column.type}`);
      return columns.map((c) => c.name);
    },
    async deleteDays(layout: TableLayout, from: string, to: string) {
      // Text dates: a day's hours ("2026-11-18T05:00:00Z") sort after the day and before "2026-11-18~".
      db.prepare(`DELETE FROM ${name} WHERE profile = ? AND query_scope = ? AND "date" >= ? AND "date" <= ?`).run(
        layout.profile,
        layout.scope,
        from,
        `${to}~`,
      );
    },
    async startInsert(layout: TableLayout, exportedAt: Date, runId: string | undefined): Promise<TableInserter> {
      const names = [...layout.columns.map((c) => quoteName(c.name)), ...BOOKKEEPING.map((c) => c.name)];
      if (runId !== undefined) names.push(RUN_ID_COLUMN);
      const row = `(${names.map(() => "?").join(", ")})`;
      const statement = (count: number) =>
        db.prepare(`INSERT INTO ${name} (${names.join(", ")}) VALUES ${Array(count).fill(row).join(", ")}`);
      // Rows go in BATCH at a time: one statement step per batch instead of one per row.
      const batch = statement(BATCH);
      const tail = [layout.profile, layout.scope, exportedAt.toISOString(), ...(runId === undefined ? [] : [runId])];
      const width = names.length;
      const values: Array<string | number | null> = new Array(BATCH * width);
      return {
        async write(rows) {
          let i = 0;
          for (; i + BATCH <= rows.length; i += BATCH) {
            for (let r = 0; r < BATCH; r += 1)
              fill(values, r * width, rows[i + r] as Array<string | number | null>, tail);
            batch.run(values);
          }
          if (i < rows.length) {
            const rest = rows.length - i;
            const last: Array<string | number | null> = new Array(rest * width);
            for (let r = 0; r < rest; r += 1) fill(last, r * width, rows[i + r] as Array<string | number | null>, tail);
            statement(rest).run(last);
          }
        },
        async end() {},
      };
    },
    async writeLoads(of, loads) {
      db.exec(SQLITE_LOADS_DDL);
      const insert = db.prepare(
        `INSERT INTO ${LOADS_TABLE} (${LOADS_COLUMNS.join(", ")}) VALUES (${LOADS_COLUMNS.map(() => "?").join(", ")})`,
      );
      for (const values of loadValues(of, loads)) insert.run(values);
      return true;
    },
    async commit() {
      if (pendingIndex) {
        db.exec(`CREATE INDEX ${quoteName(freeIndexName(db, `${table}_days`))} ON ${name} (${DAYS_INDEX_COLUMNS})`);
        pendingIndex = false;
      }
      db.exec("COMMIT");
      open = false;
    },
    async rollback() {
      // SQLite has rolled back itself after some failures (SQLITE_FULL): a ROLLBACK then would throw.
      if (open && db.inTransaction) db.exec("ROLLBACK");
      open = false;
      pendingIndex = false;
    },
    abortNow() {
      // Statements are synchronous: none is under way when a signal is handled.
    },
    async close() {
      // SQLite has rolled back itself after some failures (SQLITE_FULL): a ROLLBACK then would throw.
      if (open && db.inTransaction) db.exec("ROLLBACK");
      open = false;
      db.close();
    },
  };
}
