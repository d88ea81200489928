/**
 * Computed reports kept as temporary tables of their rows' JSON on one connection of `serve`'s own, as the
 * SQLite backend keeps them (db/report-table.ts): paging through a report costs two aggregations (the
 * first page asked is a query of its own, see page()), and this process holds none of its rows. All work
 * on that connection runs one piece at a time, so a report is never dropped while a page of it is read.
 * Tables of reports evicted or forgotten are dropped at the start of the next piece of work. Without the
 * TEMPORARY right, every page is its own query instead.
 */
import { LRUCache } from "lru-cache";
import type pg from "pg";
import type { ReportPage } from "../backend";
import { ByteBudgetCache } from "../report/cache";
import type { PostgresPlan } from "./report-sql";

/** A table's catalogue entries and first pages, besides its rows (as for SQLite). */
const TABLE_OVERHEAD_BYTES = 16 * 1024;
/** A stored row's header and index entry, besides its JSON text. */
const ROW_OVERHEAD_BYTES = 40;
const SIZE_SAMPLE_ROWS = 64;
/** Reports remembered as asked once: enough for the callers paging at any one time. */
const ASKED_REPORTS = 4096;

interface ReportTable {
  table: string | undefined;
  total: number;
  bytes: number;
}

export interface ReportTablesOptions {
  cacheBytes: number;
  cacheRows: number;
}

export class ReportTables {
  private client: pg.PoolClient | undefined;
  private readonly reports: ByteBudgetCache<ReportTable>;
  private reportRows = 0;
  private tables = 0;
  private readonly toDrop: string[] = [];
  /** Reports asked for once and not made a table yet. */
  private readonly asked = new LRUCache<string, true>({ max: ASKED_REPORTS });
  private queue: Promise<unknown> = Promise.resolve();
  /** False once the role was found to lack the TEMPORARY right. */
  private temporary = true;
  /** Counts clear(): a report computed across one is not kept (it may hold what was just replaced). */
  private generation = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly options: ReportTablesOptions,
  ) {
    this.reports = new ByteBudgetCache<ReportTable>(
      options.cacheBytes,
      (report) => report.bytes,
      (report) => {
        this.reportRows -= report.total;
        if (report.table) this.toDrop.push(report.table);
      },
    );
  }

  /**
   * A page of the report `key` names. The first page asked of a report is one query over the pool (most
   * reports are read one page, once); a second page asked makes it a table, kept while the budget allows.
   */
  page(key: string, plan: PostgresPlan, start: number, count: number): Promise<ReportPage> {
    if (!this.reports.get(key) && !this.asked.has(key)) {
      this.asked.set(key, true);
      return this.direct(plan, start, count);
    }
    const work = this.queue.then(() => this.pageNow(key, plan, start, count));
    this.queue = work.catch(() => undefined);
    return work;
  }

  get size(): number {
    return this.reports.size;
  }

  get rows(): number {
    return this.reportRows;
  }

  get usedBytes(): number {
    return this.reports.usedBytes;
  }

  get maxBytes(): number {
    return this.reports.maxBytes;
  }

  /** Forgets every report (the data changed); their tables go at the next piece of work. */
  clear(): void {
    this.generation += 1;
    this.asked.clear();
    this.reports.clear();
  }

  /** Lets the connection go: its temporary tables go with it. */
  release(broken: boolean): void {
    const client = this.client;
    this.client = undefined;
    this.reports.clear();
    this.toDrop.length = 0;
    client?.release(broken);
  }

  private async pageNow(key: string, plan: PostgresPlan, start: number, count: number): Promise<ReportPage> {
    if (!this.temporary) return await this.direct(plan, start, count);
    try {
      this.client ??= await this.connect();
      const client = this.client;
      while (this.toDrop.length > 0) await client.query(`DROP TABLE IF EXISTS pg_temp.${this.toDrop.pop()}`);
      let report = this.reports.get(key);
      let kept = true;
      if (!report) {
        const generation = this.generation;
        report = await this.compute(client, plan);
        kept = generation === this.generation && this.keep(key, report);
      }
      try {
        if (!report.table || start >= report.total) return { total: report.total, rows: [] };
        const rows = await client.query<{ json: string }>(
          `SELECT json FROM pg_temp.${report.table} WHERE n > $1 ORDER BY n LIMIT $2`,
          [start, count],
        );
        return { total: report.total, rows: rows.rows.map((r) => r.json) };
      } finally {
        if (!kept && report.table) this.toDrop.push(report.table);
      }
    } catch (error) {
      if ((error as { code?: unknown }).code === "42501" && this.temporary && this.reports.size === 0) {
        // No right to make temporary tables: every page is computed on its own from now on.
        this.temporary = false;
        this.release(false);
        return await this.direct(plan, start, count);
      }
      this.release(true);
      throw error;
    }
  }

  /**
   * A connection kept out of the pool: the pool watches only idle ones, so a server that drops this one
   * would otherwise raise its error with nobody listening, and end the process.
   */
  private async connect(): Promise<pg.PoolClient> {
    const client = await this.pool.connect();
    client.on("error", () => {
      if (this.client === client) this.release(true);
    });
    return client;
  }

  private async compute(client: pg.PoolClient, plan: PostgresPlan): Promise<ReportTable> {
    this.tables += 1;
    const table = `adr_report_${this.tables}`;
    await client.query(`CREATE TEMP TABLE ${table} (n bigint PRIMARY KEY, json text NOT NULL)`);
    const filled = await client.query(plan.fill.text.replace("{{table}}", `pg_temp.${table}`), plan.fill.values);
    const total = filled.rowCount ?? 0;
    if (total === 0) {
      await client.query(`DROP TABLE pg_temp.${table}`);
      return { table: undefined, total: 0, bytes: 0 };
    }
    const sample = await client.query<{ bytes: string | null }>(
      `SELECT avg(octet_length(json))::text AS bytes FROM pg_temp.${table} WHERE n <= ${SIZE_SAMPLE_ROWS}`,
    );
    const rowBytes = Number(sample.rows[0]?.bytes ?? 0);
    return { table, total, bytes: TABLE_OVERHEAD_BYTES + Math.ceil(total * (rowBytes + ROW_OVERHEAD_BYTES)) };
  }

  private keep(key: string, report: ReportTable): boolean {
    if (report.total > this.options.cacheRows || !this.reports.set(key, report)) return false;
    this.reportRows += report.total;
    while (this.reportRows > this.options.cacheRows && this.reports.size > 1) this.reports.evictOldest();
    return true;
  }

  private async direct(plan: PostgresPlan, start: number, count: number): Promise<ReportPage> {
    const rows = await this.pool.query<{ json: string; total: number }>({
      text: plan.page.text,
      values: [...plan.page.values, count, start],
    });
    if (rows.rows.length > 0) return { total: rows.rows[0]?.total ?? 0, rows: rows.rows.map((r) => r.json) };
    if (start === 0) return { total: 0, rows: [] };
    const counted = await this.pool.query<{ total: number }>({ text: plan.count.text, values: plan.count.values });
    return { total: counted.rows[0]?.total ?? 0, rows: [] };
  }
}
