/**
 * What `serve` keeps of the reports it computed, on either backend, within its share of `--cache-mb`: for a
 * report with an entity, only its page map (where each page starts: two numbers an entity), so any page of
 * it, in any order and of any size of report, is computed from the few entities it spans; for a report
 * without an entity (a grand total, or one row per bucket of at most 90 days: 2,161 rows at most), its rows.
 * Nothing here holds a large report's rows, so no report is ever aggregated whole again for a page.
 */
import type { ReportQuery } from "../../contract";
import { ByteBudgetCache, stringBytes } from "./cache";
import type { PageMap, PageSpan } from "./page-map";

/** What a kept row costs besides its characters: V8's string header and its slot in the array. */
const ROW_OVERHEAD_BYTES = 32;

export interface ComputedReport {
  total: number;
  /** An entity report: where each page starts. */
  map?: PageMap | undefined;
  /** A report without an entity: its rows' JSON, in order. */
  rows?: readonly string[] | undefined;
  /** The data version it was computed from, where the backend reads one with it (PostgreSQL). */
  version?: number | undefined;
}

/** A page of a computed report: its rows when the report is held whole, else the entities to read them from. */
export type PagePlan = { rows: string[]; span?: undefined } | { rows?: undefined; span: PageSpan };

/** Whether a query's report is paged by seeking (it has an entity), rather than computed whole. */
export function pagedBySeeking(query: ReportQuery): boolean {
  return query.entity !== undefined;
}

export function reportBytes(report: ComputedReport): number {
  let bytes = report.map?.bytes ?? 0;
  for (const row of report.rows ?? []) bytes += stringBytes(row) + ROW_OVERHEAD_BYTES;
  return bytes;
}

export function planPage(report: ComputedReport, start: number, count: number): PagePlan {
  if (report.rows) return { rows: report.rows.slice(start, start + count) };
  const span = report.map?.span(start, count);
  return span ? { span } : { rows: [] };
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
      this.heldRows -= report.rows?.length ?? 0;
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
    const rows = report.rows?.length ?? 0;
    if (!current || rows > this.maxRows || !this.cache.set(key, report)) return;
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
