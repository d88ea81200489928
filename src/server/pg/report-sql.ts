/** The report statements of db/report-sql.ts in PostgreSQL's dialect, with numbered parameters. */
import type { ReportQuery } from "../../contract";
import { reportSql, rowJsonSql, type SqlDialect } from "../db/report-sql";

const POSTGRES_DIALECT: SqlDialect = {
  monthStart: "extract(epoch FROM date_trunc('month', to_timestamp(t) AT TIME ZONE 'UTC'))::bigint",
  spendingText:
    "CASE WHEN spending % 1000000 = 0 THEN div(spending, 1000000)::text ELSE rtrim(div(spending, 1000000)::text || '.' || lpad(mod(spending, 1000000)::text, 6, '0'), '0') END",
  quote: (expression) => `to_json(${expression}::text)::text`,
  never: "false",
};

export interface PostgresPlan {
  /** A page of rows' JSON with the report's row count: parameters `limit` and `offset` are the last two. */
  page: { text: string; values: number[] };
  /** The report's row count alone, for a page past its end. */
  count: { text: string; values: number[] };
}

/** `@name` parameters as `$n`, in order of first use. */
function numbered(sql: string, params: Record<string, number>): { text: string; values: number[] } {
  const order: string[] = [];
  const text = sql.replace(/@(\w+)/g, (_, name: string) => {
    let index = order.indexOf(name);
    if (index < 0) index = order.push(name) - 1;
    return `$${index + 1}`;
  });
  return { text, values: order.map((name) => params[name] as number) };
}

/** Undefined when the range holds no whole hour (the report has no rows). */
export function postgresReportPlan(
  query: ReportQuery,
  advertiserId: number,
  start: number,
  count: number,
): PostgresPlan | undefined {
  const plan = reportSql(query, advertiserId, POSTGRES_DIALECT);
  if (!plan) return undefined;
  const page = numbered(
    `SELECT ${rowJsonSql(query, POSTGRES_DIALECT)} AS json, count(*) OVER () AS total FROM (${plan.sql}) r ORDER BY eid, bucket LIMIT @limit OFFSET @offset`,
    { ...plan.params, limit: count, offset: start },
  );
  return { page, count: numbered(`SELECT count(*) AS total FROM (${plan.sql}) r`, plan.params) };
}
