/**
 * What `serve` keeps of the reports it computed, on either backend, within its share of `--cache-mb`: for a
 * report with an entity, only its page map (where each page starts: two numbers an entity), so any page of
 * it, in any order and of any size of report, is computed from the few entities it spans; for a report
 * without an entity (a grand total, or one row per bucket of at most 90 days: 2,161 rows at most), its rows.
 * Nothing here holds a large report's rows, so no report is ever aggregated whole again for a page.
 */
import type { ReportQuery } from "../../contract";
import { ByteBudgetCache } from "./cache";
import { HeldRows } from "./held-rows";
import type { PageMap, PageSpan } from "./page-map";

/**
 * Rows a page of an entity report reads at least: a smaller page reads this many and keeps those after it
 * (within the budget), so a caller paging 10 rows at a time costs one query per 1,000 rows, not per page.
 */
export const READ_AHEAD_ROWS = 1000;

/** Rows of an entity report read ahead of the page that asked, from row `start` on. */
export interface ReadAhead {
  start: number;
  rows: HeldRows;
}

/** The page after the one last asked of an entity report, read while its client took that one in. */
export interface NextPage {
  start: number;
  count: number;
  /** Its rows' JSON joined by commas, as UTF-8. */
  rows: Buffer;
}

export interface ComputedReport {
  total: number;
  /** An entity report: where each page starts. */
  map?: PageMap | undefined;
  /** A report without an entity: its rows' JSON, in order. */
  rows?: HeldRows | undefined;
  /** The data version it was computed from, where the backend reads one with it (PostgreSQL). */
  version?: number | undefined;
  /** An entity report: the rows last read ahead. */
  ahead?: ReadAhead | undefined;
  /** An entity report read page after page: the next page, read before it was asked (store/read-ahead.ts). */
  next?: NextPage | undefined;
}

/**
 * A page of a computed report: its rows when they are held, else the entities to read `read` rows from
 * (the page's, and more when it is small).
 */
export type PagePlan =
  | { rows: string[] | Buffer; span?: undefined; readAhead?: boolean }
  | { rows?: undefined; span: PageSpan; read: number; readAhead?: undefined };

/** Whether a query's report is paged by seeking (it has an entity), rather than computed whole. */
export function pagedBySeeking(query: ReportQuery): boolean {
  return query.entity !== undefined;
}

function heldRows(report: ComputedReport): number {
  return (report.rows?.length ?? 0) + (report.ahead?.rows.length ?? 0);
}

export function reportBytes(report: ComputedReport): number {
  const held = (report.rows?.byteSize ?? 0) + (report.ahead?.rows.byteSize ?? 0);
  return (report.map?.bytes ?? 0) + held + (report.next?.rows.byteLength ?? 0);
}

/** A report computed whole: its rows, held outside V8's heap. */
export function wholeReport(rows: readonly string[], version?: number): ComputedReport {
  return { total: rows.length, rows: HeldRows.of(rows), version };
}

export function planPage(report: ComputedReport, start: number, count: number): PagePlan {
  if (report.rows) return { rows: report.rows.slice(start, start + count) };
  const end = Math.min(start + count, report.total);
  const next = report.next;
  if (next && start === next.start && count === next.count) return { rows: next.rows, readAhead: true };
  const ahead = report.ahead;
  if (ahead && start >= ahead.start && end <= ahead.start + ahead.rows.length) {
    return { rows: ahead.rows.slice(start - ahead.start, end - ahead.start) };
  }
  const read = Math.max(count, READ_AHEAD_ROWS);
  const span = report.map?.span(start, read);
  return span ? { span, read } : { rows: [] };
}

export class ComputedReports {
  private readonly cache: ByteBudgetCache<ComputedReport>;
  private heldRows = 0;
  private computedCount = 0;

  /** `maxRows` bounds the rows held by reports kept whole (`--cache-rows`). */
  constructor(
    maxBytes: number,
    private readonly maxRows: number,
  ) {
    this.cache = new ByteBudgetCache<ComputedReport>(maxBytes, reportBytes, (report) => {
      this.heldRows -= heldRows(report);
    });
  }

  get(key: string): ComputedReport | undefined {
    return this.cache.get(key);
  }

  /**
   * Counts a report just computed and keeps it while the budget allows, unless `current` is false (the data
   * changed while it was computed: it answers its request, and goes).
   */
  keep(key: string, report: ComputedReport, current = true): void {
    this.computedCount += 1;
    if (current) this.hold(key, report);
  }

  /**
   * The rows a page read beyond itself (`rows` from row `start`, the page's own first), kept with the
   * report `key` while it is kept and the budget allows; replaces those kept before.
   */
  keepAhead(key: string, report: ComputedReport, start: number, rows: readonly string[]): void {
    if (this.cache.get(key) !== report) return;
    this.hold(key, { ...report, ahead: { start, rows: HeldRows.of(rows) } });
  }

  /** The page read before it was asked, kept with the report `key` while it is kept and the budget allows. */
  keepNext(key: string, report: ComputedReport, next: NextPage): void {
    if (this.cache.get(key) !== report) return;
    this.hold(key, { ...report, next });
  }

  private hold(key: string, report: ComputedReport): void {
    const rows = heldRows(report);
    if (rows > this.maxRows || !this.cache.set(key, report)) return;
    this.heldRows += rows;
    while (this.heldRows > this.maxRows && this.cache.size > 1) this.cache.evictOldest();
  }

  clear(): void {
    this.cache.clear();
  }

  get size(): number {
    return this.cache.size;
  }

  /** Rows held by the reports kept whole. */
  get rows(): number {
    return this.heldRows;
  }

  /** Reports computed since the start (counted or aggregated), kept or not: pages read from a kept one add none. */
  get computed(): number {
    return this.computedCount;
  }

  get usedBytes(): number {
    return this.cache.usedBytes;
  }

  get maxBytes(): number {
    return this.cache.maxBytes;
  }
}
