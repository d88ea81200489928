/**
 * `--output sqlite:PATH`: the table in an SQLite file (created if missing), filled in one transaction with
 * one prepared insert. Spending is NUMERIC (SQLite keeps it as an 8-byte float, exact to the micro for any
 * amount below 9 billion); dates are ISO 8601 text.
 */
import Database from "better-sqlite3";
import { quoteName, type TableLayout } from "./table-columns";
import type { TableEngine, TableInserter } from "./table-engine";

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

const SQLITE_TYPES = { id: "INTEGER", text: "TEXT", date: "TEXT", count: "INTEGER", money: "NUMERIC" } as const;

export function sqliteEngine(path: string, shownPath: string, table: string, addon: object | undefined): TableEngine {
  const db = new Database(path, { timeout: 10_000, ...(addon ? { nativeBinding: addon as unknown as string } : {}) });
  db.pragma("journal_mode = WAL");
  db.pragma("cache_size = -65536"); // 64 MB of pages: a big run's inserts and deletes stay in memory
  const name = quoteName(table);
  let open = false;
  let pendingIndex = false;
  return {
    description: `the table ${table} in ${shownPath}`,
    async columns() {
      const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table);
      if (exists === undefined) return undefined;
      const rows = db.prepare("SELECT name FROM pragma_table_info(?) ORDER BY cid").all(table) as Array<{
        name: string;
      }>;
      return rows.map((row) => row.name);
    },
    async begin(layout: TableLayout) {
      db.exec("BEGIN IMMEDIATE");
      open = true;
      const columns = [
        ...layout.columns.map((c) => `${quoteName(c.name)} ${SQLITE_TYPES[c.kind]}`),
        "profile TEXT NOT NULL",
        "query_scope TEXT NOT NULL",
        "exported_at TEXT NOT NULL",
      ];
      const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table);
      db.exec(`CREATE TABLE IF NOT EXISTS ${name} (${columns.join(", ")})`);
      // A new table gets its index at commit: built once from sorted rows, instead of row by row in random order.
      pendingIndex = exists === undefined;
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
    async startInsert(layout: TableLayout, exportedAt: Date): Promise<TableInserter> {
      const names = [...layout.columns.map((c) => quoteName(c.name)), "profile", "query_scope", "exported_at"];
      const row = `(${names.map(() => "?").join(", ")})`;
      const statement = (count: number) =>
        db.prepare(`INSERT INTO ${name} (${names.join(", ")}) VALUES ${Array(count).fill(row).join(", ")}`);
      // Rows go in BATCH at a time: one statement step per batch instead of one per row.
      const batch = statement(BATCH);
      const tail = [layout.profile, layout.scope, exportedAt.toISOString()];
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
    async commit() {
      if (pendingIndex) {
        db.exec(`CREATE INDEX IF NOT EXISTS ${quoteName(`${table}_days`)} ON ${name} (profile, query_scope, "date")`);
        pendingIndex = false;
      }
      db.exec("COMMIT");
      open = false;
    },
    async rollback() {
      if (open) db.exec("ROLLBACK");
      open = false;
      pendingIndex = false;
    },
    abortNow() {
      // Statements are synchronous: none is under way when a signal is handled.
    },
    async close() {
      if (open) db.exec("ROLLBACK");
      open = false;
      db.close();
    },
  };
}
