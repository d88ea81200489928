/**
 * A computed report kept as a temporary table of its rows' JSON, read a page at a time, so the pages of
 * one report cost one aggregation and memory holds none of its rows.
 */
import type { ReportQuery } from "../../contract";
import type { Connection } from "./live-connection";
import { reportSql, rowJsonSql } from "./report-sql";
import type { Db } from "./schema";

type Statement<P extends unknown[] = unknown[], R = unknown> = import("better-sqlite3").Statement<P, R>;

/**
 * What a computed report's temporary table costs besides its rows: its schema entry, its prepared page
 * statement and the first pages SQLite caches for it. A report without rows keeps no table.
 */
const TABLE_OVERHEAD_BYTES = 16 * 1024;
/** A stored row's record header, rowid and cell pointer, besides its JSON text. */
const ROW_OVERHEAD_BYTES = 16;
/** Rows whose size stands for all rows of a report (reading every row to measure it would cost a scan). */
const SIZE_SAMPLE_ROWS = 64;

/** A computed report: its rows as JSON text in temporary table `table` of `db` (none when it has no rows). */
export interface ReportTable {
  db: Db;
  table: string | undefined;
  total: number;
  /** What keeping it costs, estimated from a sample of its rows. */
  bytes: number;
  page: Statement<[number, number], string> | undefined;
}

export function dropReportTable(report: ReportTable): void {
  if (report.table === undefined || !report.db.open) return;
  try {
    report.db.exec(`DROP TABLE IF EXISTS temp.${report.table}`);
  } catch {
    // The connection is failing and about to be closed, and its temporary tables go with it.
  }
}

/** Computes the report into a new temporary table named `table`. */
export function materializeReport(c: Connection, query: ReportQuery, advertiserId: number, table: string): ReportTable {
  const empty: ReportTable = { db: c.db, table: undefined, total: 0, bytes: 0, page: undefined };
  const plan = reportSql(query, advertiserId);
  if (!plan) return empty;
  c.db.exec(`CREATE TEMP TABLE ${table} (n INTEGER PRIMARY KEY, json TEXT NOT NULL)`);
  const sql = `INSERT INTO temp.${table} SELECT row_number() OVER (ORDER BY eid, bucket), ${rowJsonSql(query)} FROM (${plan.sql})`;
  let fill = c.reportStatements.get(sql);
  if (!fill) {
    fill = c.db.prepare(sql);
    c.reportStatements.set(sql, fill);
  }
  const total = fill.run(plan.params).changes;
  if (total === 0) {
    c.db.exec(`DROP TABLE temp.${table}`);
    return empty;
  }
  const sampleBytes = c.db
    .prepare<[number], number>(`SELECT avg(length(CAST(json AS BLOB))) FROM temp.${table} WHERE n <= ?`)
    .pluck()
    .get(SIZE_SAMPLE_ROWS) as number;
  const page = c.db
    .prepare<[number, number], string>(`SELECT json FROM temp.${table} WHERE n > ? ORDER BY n LIMIT ?`)
    .pluck();
  const bytes = TABLE_OVERHEAD_BYTES + Math.ceil(total * (sampleBytes + ROW_OVERHEAD_BYTES));
  return { db: c.db, table, total, bytes, page };
}
