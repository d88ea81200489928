/**
 * The statements that page an entity report by seeking (report/page-map.ts): how many rows each of the
 * report's entities has, and one page computed from the entities it spans alone. Reports without an entity
 * (a grand total, or one row per bucket: at most 2,161) are computed whole.
 */
import type { ReportQuery } from "../../contract";
import type { PageSpan } from "../report/page-map";
import { SQLITE_DIALECT, type SqlDialect } from "./dialect";
import { bucketOf, entityIdSql, factParts, reportSql, rowJsonSql, type SqlPlan } from "./report-sql";
import { streamedPageSql } from "./report-stream-sql";

/**
 * Each of the report's entities (column eid, ascending) with its rows (column n, 0 for none), or undefined
 * when the range holds no whole hour. Cheaper than the report: no sums, no JSON, and per entity an index
 * range (no sort of the whole report); an hourly bucket is one fact row, and a report without dates has a
 * row for any entity with a fact.
 */
export function entityCountSql(
  query: ReportQuery,
  advertiserId: number,
  dialect: SqlDialect = SQLITE_DIALECT,
): SqlPlan | undefined {
  const id = entityIdSql(query);
  if (!id) throw new Error("only an entity report is paged by seeking");
  const { parts, params, scope } = factParts(query, advertiserId, `${id} = e.eid`);
  if (parts.length === 0) return undefined;
  const facts = parts.join(" UNION ALL ");
  const rows = !query.byDate
    ? `CASE WHEN EXISTS (${facts}) THEN 1 ELSE 0 END`
    : query.granularity === "hour"
      ? `(SELECT count(*) FROM (${facts}) s)`
      : `(SELECT count(DISTINCT ${bucketOf(query, dialect)}) FROM (${facts}) s)`;
  const entities = `SELECT DISTINCT ${id} AS eid FROM ${scope.from} WHERE ${scope.where}`;
  return { sql: `SELECT e.eid AS eid, ${rows} AS n FROM (${entities}) e ORDER BY e.eid`, params };
}

/** Rows [skip, skip + limit) of the entities `span` names, as JSON (column json), in the report's order. */
export function entityPageSql(
  query: ReportQuery,
  advertiserId: number,
  span: PageSpan,
  limit: number,
  dialect: SqlDialect = SQLITE_DIALECT,
): SqlPlan | undefined {
  const streamed = streamedPageSql(query, advertiserId, span);
  if (streamed && "none" in streamed) return undefined;
  const plan = streamed ? streamed.plan : reportSql(query, advertiserId, dialect, span);
  if (!plan) return undefined;
  return {
    sql: `SELECT ${rowJsonSql(query, dialect)} AS json, eid, bucket FROM (${plan.sql}) r ORDER BY eid, bucket`,
    params: { ...plan.params, limit, skip: span.skip },
  };
}

/** Every row of the report as JSON (column json), in order; for reports without an entity. */
export function wholeReportSql(
  query: ReportQuery,
  advertiserId: number,
  dialect: SqlDialect = SQLITE_DIALECT,
): SqlPlan | undefined {
  const plan = reportSql(query, advertiserId, dialect);
  if (!plan) return undefined;
  return {
    sql: `SELECT ${rowJsonSql(query, dialect)} AS json, eid, bucket FROM (${plan.sql}) r ORDER BY eid, bucket`,
    params: plan.params,
  };
}
