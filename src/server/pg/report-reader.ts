/**
 * A report on PostgreSQL, over the pool: computed as a page map (an entity report) or whole
 * (report/computed-reports.ts), and a page of it read from the entities it spans. Each statement says
 * which data version it read, so the cache policy (store/serve-store.ts) can tell a page read from other
 * data than its map.
 */
import type pg from "pg";
import type { ReportQuery } from "../../contract";
import { type ComputedReport, pagedBySeeking, wholeReport } from "../report/computed-reports";
import { PageMap, type PageSpan } from "../report/page-map";
import {
  type PostgresStatement,
  postgresCountStatement,
  postgresPageStatement,
  postgresWholeStatement,
} from "./report-sql";

/** Rows of [version, a column or two]; none when the result is empty. */
async function rows(pool: pg.Pool, statement: PostgresStatement): Promise<unknown[][]> {
  return (await pool.query<unknown[]>({ ...statement, rowMode: "array" })).rows;
}

export async function computeReport(pool: pg.Pool, query: ReportQuery, advertiserId: number): Promise<ComputedReport> {
  if (pagedBySeeking(query)) {
    const result = await rows(pool, postgresCountStatement(query, advertiserId));
    const counts = result.map((r) => [r[1], r[2]] as [number, number]);
    const map = new PageMap(counts);
    return { total: map.total, map, version: result[0]?.[0] as number | undefined };
  }
  const result = await rows(pool, postgresWholeStatement(query, advertiserId));
  return wholeReport(
    result.map((r) => r[1] as string),
    result[0]?.[0] as number | undefined,
  );
}

/** A page of an entity report and the data version it was read from. */
export async function readPage(
  pool: pg.Pool,
  query: ReportQuery,
  advertiserId: number,
  span: PageSpan,
  count: number,
): Promise<{ rows: string[]; version: number | undefined }> {
  const result = await rows(pool, postgresPageStatement(query, advertiserId, span, count));
  return {
    rows: result.map((r) => r[1] as string),
    version: result[0]?.[0] as number | undefined,
  };
}
