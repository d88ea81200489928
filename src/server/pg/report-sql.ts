/**
 * The report statements of sql/report-seek-sql.ts in PostgreSQL's dialect, with numbered parameters. Each
 * also returns, on every row, the data version its snapshot saw, so a page is never read from other data than
 * the page map it was placed by; a statement with no rows says no version (a page read empty is taken as read
 * from other data, as it is: its map said it had rows).
 */
import type { ReportQuery } from "../../contract";
import type { PageSpan } from "../report/page-map";
import { type NumberedStatement, numbered, POSTGRES_DIALECT } from "../sql/dialect";
import { entityCountSql, entityPageSql, wholeReportSql } from "../sql/report-seek-sql";
import type { SqlPlan } from "../sql/report-sql";

export type PostgresStatement = NumberedStatement<number>;

/**
 * The statement's rows beside the data version, read in the same snapshot. The version is a subquery run
 * once, not a join: PostgreSQL then knows the rows come in `order` already and does not sort a page again
 * (a third of a 1,000-row page's time).
 */
function versioned(plan: SqlPlan | undefined, columns: string, order: string): PostgresStatement {
  const rows =
    plan?.sql ?? "SELECT NULL::bigint AS eid, NULL::bigint AS bucket, NULL::bigint AS n, NULL AS json WHERE false";
  return numbered(
    `SELECT (SELECT version FROM data_version WHERE id = 1) AS version, ${columns} FROM (${rows}) r ORDER BY ${order}`,
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
