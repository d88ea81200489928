/**
 * A report on `serve`'s read-only SQLite connection: computed as a page map (an entity report) or whole
 * (report/computed-reports.ts), and a page of it read from the entities it spans.
 */
import type { ReportQuery } from "../../contract";
import { type ComputedReport, pagedBySeeking, wholeReport } from "../report/computed-reports";
import { PageMap, type PageSpan } from "../report/page-map";
import { entityCountSql, entityPageSql, wholeReportSql } from "../sql/report-seek-sql";
import type { Connection } from "./live-connection";

type Statement = import("better-sqlite3").Statement;

/** A prepared statement of the connection's cache; `raw` rows as arrays, else the first column alone. */
function prepared(c: Connection, sql: string, raw: boolean): Statement {
  let statement = c.reportStatements.get(sql);
  if (!statement) {
    statement = raw ? c.db.prepare(sql).raw(true) : c.db.prepare(sql).pluck(true);
    c.reportStatements.set(sql, statement);
  }
  return statement;
}

export function computeReport(c: Connection, query: ReportQuery, advertiserId: number): ComputedReport {
  if (pagedBySeeking(query)) {
    const plan = entityCountSql(query, advertiserId);
    const map = new PageMap(
      plan ? (prepared(c, plan.sql, true).iterate(plan.params) as Iterable<[number, number]>) : [],
    );
    return { total: map.total, map };
  }
  const plan = wholeReportSql(query, advertiserId);
  return wholeReport(plan ? (prepared(c, plan.sql, false).all(plan.params) as string[]) : []);
}

/** The rows of a page of an entity report: those of the entities it spans, from its first row on. */
export function readPage(
  c: Connection,
  query: ReportQuery,
  advertiserId: number,
  span: PageSpan,
  count: number,
): string[] {
  const plan = entityPageSql(query, advertiserId, span, count);
  return plan ? (prepared(c, plan.sql, false).all(plan.params) as string[]) : [];
}

/**
 * The same rows joined by commas, as SQLite's UTF-8 bytes: for a page read whole (no rows ahead to keep),
 * this skips a string for each row, their join, and encoding the page back to UTF-8 (about 2 ms of a
 * 1,000-row page).
 */
export function readJoinedPage(
  c: Connection,
  query: ReportQuery,
  advertiserId: number,
  span: PageSpan,
  count: number,
): Buffer {
  const plan = entityPageSql(query, advertiserId, span, count);
  if (!plan) return Buffer.alloc(0);
  // In the ordered subquery's order, as SQLite feeds it to the aggregate (test/server/seek-pages holds it);
  // group_concat's own ORDER BY would sort the page again.
  const sql = `SELECT CAST(group_concat(json, ',') AS BLOB) FROM (${plan.sql})`;
  return (prepared(c, sql, false).get(plan.params) as Buffer | null) ?? Buffer.alloc(0);
}
