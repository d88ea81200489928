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
  /** A page of rows' JSON with the report's row count: append the limit and the offset to `values`. */
  page: { text: string; values: number[] };
  /** The report's row count alone, for a page past its end. */
  count: { text: string; values: number[] };
  /** Fills a table (n, json) named where `{{table}}` stands with the report's rows, numbered from 1. */
  fill: { text: string; values: number[] };
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
export function postgresReportPlan(query: ReportQuery, advertiserId: number): PostgresPlan | undefined {
  const plan = reportSql(query, advertiserId, POSTGRES_DIALECT);
  if (!plan) return undefined;
  const json = rowJsonSql(query, POSTGRES_DIALECT);
  const rows = numbered(`SELECT ${json} AS json, count(*) OVER () AS total FROM (${plan.sql}) r`, plan.params);
  const n = rows.values.length;
  const fill = numbered(
    `INSERT INTO {{table}} SELECT row_number() OVER (ORDER BY eid, bucket), ${json} FROM (${plan.sql}) r`,
    plan.params,
  );
  return {
    page: { text: `${rows.text} ORDER BY eid, bucket LIMIT $${n + 1} OFFSET $${n + 2}`, values: rows.values },
    count: numbered(`SELECT count(*) AS total FROM (${plan.sql}) r`, plan.params),
    fill,
  };
}
