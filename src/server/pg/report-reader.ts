/**
 * A report on PostgreSQL, over the pool: computed as a page map (an entity report) or whole
 * (report/computed-reports.ts), and a page of it read from the entities it spans. Each statement says
 * which data version it read, so the store can tell a page read from other data than its map.
 */
import type pg from "pg";
import type { ReportQuery } from "../../contract";
import type { ReportPage } from "../backend";
import { computedReportKey } from "../db/report-segments";
import { type ComputedReport, type ComputedReports, pagedBySeeking, planPage } from "../report/computed-reports";
import { PageMap, type PageSpan } from "../report/page-map";
import {
  type PostgresStatement,
  postgresCountStatement,
  postgresPageStatement,
  postgresWholeStatement,
} from "./report-sql";

/** Times a page is placed again by a new map when the data changed under it, before it is answered anyway. */
const PAGE_ATTEMPTS = 3;

/** Rows of [version, a column or two]: the first row always, its other columns null when the result is empty. */
async function rows(pool: pg.Pool, statement: PostgresStatement): Promise<unknown[][]> {
  return (await pool.query<unknown[]>({ ...statement, rowMode: "array" })).rows;
}

export async function computeReport(pool: pg.Pool, query: ReportQuery, advertiserId: number): Promise<ComputedReport> {
  if (pagedBySeeking(query)) {
    const result = await rows(pool, postgresCountStatement(query, advertiserId));
    const counts = result.filter((r) => r[1] !== null).map((r) => [r[1], r[2]] as [number, number]);
    const map = new PageMap(counts);
    return { total: map.total, map, version: result[0]?.[0] as number | undefined };
  }
  const result = await rows(pool, postgresWholeStatement(query, advertiserId));
  const json = result.filter((r) => r[1] !== null).map((r) => r[1] as string);
  return { total: json.length, rows: json, version: result[0]?.[0] as number | undefined };
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
    rows: result.filter((r) => r[1] !== null).map((r) => r[1] as string),
    version: result[0]?.[0] as number | undefined,
  };
}

export interface PageRequest {
  query: ReportQuery;
  advertiserId: number;
  start: number;
  count: number;
}

export interface StoreHooks {
  /** Counts the store's forgetting: a report computed across one is not kept. */
  generation(): number;
  /** The data changed since a kept map was made: the store forgets what it read. */
  changed(version: number | undefined): void;
}

/** A page of the report, by its kept map (made and kept first when there is none), from the map's data. */
export async function reportPage(
  pool: pg.Pool,
  reports: ComputedReports,
  { query, advertiserId, start, count }: PageRequest,
  store: StoreHooks,
): Promise<ReportPage> {
  const key = computedReportKey(query, advertiserId);
  for (let attempt = 1; ; attempt += 1) {
    let report = reports.get(key);
    if (!report) {
      const generation = store.generation();
      report = await computeReport(pool, query, advertiserId);
      reports.keep(key, report, generation === store.generation());
    }
    const page = planPage(report, start, count);
    if (!page.span) return { total: report.total, rows: page.rows };
    const read = await readPage(pool, query, advertiserId, page.span, page.read);
    const current = read.version === report.version;
    if (current && read.rows.length > count) reports.keepAhead(key, report, start, read.rows);
    if (current || attempt === PAGE_ATTEMPTS) return { total: report.total, rows: read.rows.slice(0, count) };
    store.changed(read.version);
  }
}
