/**
 * The report statements of sql/report-seek-sql.ts in PostgreSQL's dialect, with numbered parameters. Each
 * also returns the data version its snapshot saw (one row with nulls when it has no rows), so a page is
 * never read from other data than the page map it was placed by.
 */
import type { ReportQuery } from "../../contract";
import type { PageSpan } from "../report/page-map";
import { type NumberedStatement, numbered, POSTGRES_DIALECT } from "../sql/dialect";
import { entityCountSql, entityPageSql, wholeReportSql } from "../sql/report-seek-sql";
import type { SqlPlan } from "../sql/report-sql";

export type PostgresStatement = NumberedStatement<number>;

/** The statement's rows beside the data version, read in the same snapshot. */
function versioned(plan: SqlPlan | undefined, columns: string, order: string): PostgresStatement {
  const rows =
    plan?.sql ?? "SELECT NULL::bigint AS eid, NULL::bigint AS bucket, NULL::bigint AS n, NULL AS json WHERE false";
  return numbered(
    `SELECT v.version, ${columns} FROM (SELECT (SELECT version FROM data_version WHERE id = 1) AS version) v LEFT JOIN (${rows}) r ON true ORDER BY ${order}`,
    plan?.params ?? {},
  );
}

/** Columns version, eid, n: each entity of the report with its rows. */
export function postgresCountStatement(query: ReportQuery, advertiserId: number): PostgresStatement {
  return versioned(entityCountSql(query, advertiserId, POSTGRES_DIALECT), "r.eid, r.n", "r.eid");
}

/** Columns version, json: a page of an entity report, from the entities `span` names. */
export function postgresPageStatement(
  query: ReportQuery,
  advertiserId: number,
  span: PageSpan,
  limit: number,
): PostgresStatement {
  const plan = entityPageSql(query, advertiserId, span, limit, POSTGRES_DIALECT);
  return versioned(plan, "r.json", "r.eid, r.bucket");
}

/** Columns version, json: every row of a report without an entity. */
export function postgresWholeStatement(query: ReportQuery, advertiserId: number): PostgresStatement {
  return versioned(wholeReportSql(query, advertiserId, POSTGRES_DIALECT), "r.json", "r.eid, r.bucket");
}
