/**
 * The report statements of db/report-seek-sql.ts in PostgreSQL's dialect, with numbered parameters. Each
 * also returns the data version its snapshot saw (one row with nulls when it has no rows), so a page is
 * never read from other data than the page map it was placed by.
 */
import type { ReportQuery } from "../../contract";
import { entityCountSql, entityPageSql, wholeReportSql } from "../db/report-seek-sql";
import type { SqlDialect, SqlPlan } from "../db/report-sql";
import type { PageSpan } from "../report/page-map";

const POSTGRES_DIALECT: SqlDialect = {
  monthStart: "extract(epoch FROM date_trunc('month', to_timestamp(t) AT TIME ZONE 'UTC'))::bigint",
  spendingText:
    "CASE WHEN spending % 1000000 = 0 THEN div(spending, 1000000)::text ELSE rtrim(div(spending, 1000000)::text || '.' || lpad(mod(spending, 1000000)::text, 6, '0'), '0') END",
  quote: (expression) => `to_json(${expression}::text)::text`,
  never: "false",
};

export interface PostgresStatement {
  text: string;
  values: number[];
}

/** `@name` parameters as `$n`, in order of first use. */
function numbered(sql: string, params: Record<string, number>): PostgresStatement {
  const order: string[] = [];
  const text = sql.replace(/@(\w+)/g, (_, name: string) => {
    let index = order.indexOf(name);
    if (index < 0) index = order.push(name) - 1;
    return `$${index + 1}`;
  });
  return { text, values: order.map((name) => params[name] as number) };
}

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
