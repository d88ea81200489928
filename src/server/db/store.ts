/**
 * The read side `serve` answers from: keys, ownership and reports, over a read-only connection kept true
 * to the file (live-connection.ts), with what it read kept in memory until the data changes.
 */
import type { ReportQuery } from "../../contract";
import type { CacheUsage, ReportPage, ServeStore } from "../backend";
import { ByteBudgetCache, stringBytes } from "../report/cache";
import { canonicalQueryKey } from "../report/query-key";
import { Whitelist } from "./ip";
import { LiveConnection, type StoredKey } from "./live-connection";
import { computedReportKey } from "./report-sql";
import { dropReportTable, materializeReport, type ReportTable } from "./report-table";
import type { Db } from "./schema";

interface StoreOptions {
  /** Bytes the computed reports and the rendered pages may hold together. */
  cacheBytes: number;
  /** Rows the computed reports may hold together. */
  cacheRows: number;
  /** A monotonic clock in milliseconds; tests pass their own. */
  nowMs?: (() => number) | undefined;
  /** Receives a line when the database is reopened or fails. */
  log?: ((line: string) => void) | undefined;
}

export class ReportStore implements ServeStore {
  private readonly live: LiveConnection;
  private readonly keys = new Map<string, StoredKey>();
  private readonly whitelists = new Map<number, Whitelist>();
  /** Computed reports, so the pages of one report cost one aggregation. */
  private readonly reports: ByteBudgetCache<ReportTable>;
  private reportRows = 0;
  private tables = 0;
  /** Whole response bodies by advertiser and canonical query, for clients asking the same again. */
  private readonly pages: ByteBudgetCache<string>;
  private readonly cacheRows: number;

  /** Opens the database at once: a file that cannot be served fails here, before anything listens. */
  constructor(path: string, open: (path: string) => Db, options: StoreOptions) {
    this.cacheRows = options.cacheRows;
    // Pages are cheap to rebuild from a kept report, so reports get most of the budget.
    const pageBytes = Math.floor(options.cacheBytes / 4);
    this.pages = new ByteBudgetCache<string>(pageBytes, stringBytes);
    this.reports = new ByteBudgetCache<ReportTable>(
      options.cacheBytes - pageBytes,
      (report) => report.bytes,
      (report) => {
        this.reportRows -= report.total;
        dropReportTable(report);
      },
    );
    this.live = new LiveConnection(path, open, {
      nowMs: options.nowMs ?? (() => performance.now()),
      log: options.log,
      forget: () => this.forget(),
    });
  }

  findKey(hash: string): StoredKey | undefined {
    return this.live.use((c) => {
      let key = this.keys.get(hash);
      if (!key) {
        key = c.stmt.key.get(hash);
        if (key) this.keys.set(hash, key);
      }
      return key;
    });
  }

  whitelist(keyId: number): Whitelist {
    return this.live.use((c) => {
      let list = this.whitelists.get(keyId);
      if (!list) {
        list = new Whitelist(c.stmt.ips.all(keyId).map((r) => r.ip));
        this.whitelists.set(keyId, list);
      }
      return list;
    });
  }

  campaignAdvertiser(campaignId: number): number | undefined {
    return this.live.use((c) => c.stmt.campaign.get(campaignId)?.advertiserId);
  }

  adAdvertiser(adId: number): number | undefined {
    return this.live.use((c) => c.stmt.ad.get(adId)?.advertiserId);
  }

  /** A page of the report, computed once into a temporary table (kept while the budget allows). */
  reportPage(query: ReportQuery, advertiserId: number, start: number, count: number): ReportPage {
    return this.live.use((c) => {
      const key = computedReportKey(query, advertiserId);
      let report = this.reports.get(key);
      let keptElsewhere = true;
      if (!report) {
        this.tables += 1;
        report = materializeReport(c, query, advertiserId, `report_${this.tables}`);
        keptElsewhere = this.keep(key, report);
      }
      try {
        const rows = report.page && start < report.total ? report.page.all(start, count) : [];
        return { total: report.total, rows };
      } finally {
        // A report too large for the budget serves the request that computed it, then goes.
        if (!keptElsewhere) dropReportTable(report);
      }
    });
  }

  /** A response body given before to this advertiser for this query, while the data is unchanged. */
  cachedPage(advertiserId: number, query: ReportQuery): string | undefined {
    return this.live.use(() => this.pages.get(`${advertiserId}:${canonicalQueryKey(query)}`));
  }

  rememberPage(advertiserId: number, query: ReportQuery, body: string): void {
    this.pages.set(`${advertiserId}:${canonicalQueryKey(query)}`, body);
  }

  /** What the caches hold now, for tests and the operator. */
  cacheUsage(): CacheUsage {
    return {
      bytes: this.reports.usedBytes + this.pages.usedBytes,
      budget: this.reports.maxBytes + this.pages.maxBytes,
      reports: this.reports.size,
      pages: this.pages.size,
      reportRows: this.reportRows,
    };
  }

  close(): void {
    this.live.close();
  }

  private keep(key: string, report: ReportTable): boolean {
    if (report.total > this.cacheRows || !this.reports.set(key, report)) return false;
    this.reportRows += report.total;
    while (this.reportRows > this.cacheRows && this.reports.size > 1) this.reports.evictOldest();
    return true;
  }

  /** Forgets everything read from the database. */
  private forget(): void {
    this.keys.clear();
    this.whitelists.clear();
    this.reports.clear();
    this.pages.clear();
  }
}
