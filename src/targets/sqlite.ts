/**
 * `--output sqlite:PATH`: the table in an SQLite file (created if missing), filled in one transaction with
 * one prepared insert. Spending is NUMERIC (SQLite keeps it as an 8-byte float, exact to the micro for any
 * amount below 9 billion); dates are ISO 8601 text.
 */
import Database from "better-sqlite3";
import { quoteName, type TableLayout } from "./table-columns";
import type { TableEngine, TableInserter } from "./table-engine";

const SQLITE_TYPES = { id: "INTEGER", text: "TEXT", date: "TEXT", count: "INTEGER", money: "NUMERIC" } as const;

export function sqliteEngine(path: string, shownPath: string, table: string, addon: object | undefined): TableEngine {
  const db = new Database(path, { timeout: 10_000, ...(addon ? { nativeBinding: addon as unknown as string } : {}) });
  db.pragma("journal_mode = WAL");
  const name = quoteName(table);
  let open = false;
  return {
    description: `the table ${table} in ${shownPath}`,
    async begin(layout: TableLayout) {
      db.exec("BEGIN IMMEDIATE");
      open = true;
      const columns = [
        ...layout.columns.map((c) => `${quoteName(c.name)} ${SQLITE_TYPES[c.kind]}`),
        "profile TEXT NOT NULL",
        "query_scope TEXT NOT NULL",
        "exported_at TEXT NOT NULL",
      ];
      db.exec(`CREATE TABLE IF NOT EXISTS ${name} (${columns.join(", ")})`);
      db.exec(`CREATE INDEX IF NOT EXISTS ${quoteName(`${table}_days`)} ON ${name} (profile, query_scope, "date")`);
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
      const insert = db.prepare(
        `INSERT INTO ${name} (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")})`,
      );
      const tail = [layout.profile, layout.scope, exportedAt.toISOString()];
      return {
        async write(rows) {
          for (const row of rows) insert.run(...row, ...tail);
        },
        async end() {},
      };
    },
    async commit() {
      db.exec("COMMIT");
      open = false;
    },
    async rollback() {
      if (open) db.exec("ROLLBACK");
      open = false;
    },
    async close() {
      if (open) db.exec("ROLLBACK");
      open = false;
      db.close();
    },
  };
}
