/**
 * The read side `serve` answers from: keys, ownership and reports, over a read-only connection kept true
 * to the file (live-connection.ts), with what it read kept in memory until the data changes.
 */
import type { ReportQuery } from "../../contract";
import type { CacheUsage, ReportPage, ServeStore } from "../backend";
import { ByteBudgetCache, bufferBytes } from "../report/cache";
import { ComputedReports, planPage } from "../report/computed-reports";
import { canonicalQueryKey } from "../report/query-key";
import { Whitelist } from "./ip";
import { LiveConnection, type StoredKey } from "./live-connection";
import { computeReport, readJoinedPage, readPage } from "./report-reader";
import { computedReportKey } from "./report-segments";
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
  /** Computed reports: page maps, and small reports' rows (report/computed-reports.ts). */
  private readonly reports: ComputedReports;
  /** Whole response bodies by advertiser and canonical query, for clients asking the same again. */
  private readonly pages: ByteBudgetCache<Buffer>;

  /** Opens the database at once: a file that cannot be served fails here, before anything listens. */
  constructor(path: string, open: (path: string) => Db, options: StoreOptions) {
    // Pages are cheap to rebuild from a kept report, so reports get most of the budget.
    const pageBytes = Math.floor(options.cacheBytes / 4);
    this.pages = new ByteBudgetCache<Buffer>(pageBytes, bufferBytes);
    this.reports = new ComputedReports(options.cacheBytes - pageBytes, options.cacheRows);
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

  /**
   * A page of the report: its page map (or its rows) computed once and kept while the budget allows, the
   * page then read from the entities it spans (with rows after it, for the next small pages). All in one read transaction, after a look at the data's
   * version, so the map and the page always come from the same data.
   */
  reportPage(query: ReportQuery, advertiserId: number, start: number, count: number): ReportPage {
    return this.live.snapshot((c) => {
      const key = computedReportKey(query, advertiserId);
      let report = this.reports.get(key);
      if (!report) {
        report = computeReport(c, query, advertiserId);
        this.reports.keep(key, report);
      }
      const page = planPage(report, start, count);
      if (!page.span) return { total: report.total, rows: page.rows };
      if (page.read === count) {
        return { total: report.total, rows: readJoinedPage(c, query, advertiserId, page.span, count) };
      }
      const rows = readPage(c, query, advertiserId, page.span, page.read);
      if (rows.length > count) this.reports.keepAhead(key, report, start, rows);
      return { total: report.total, rows: rows.slice(0, count) };
    });
  }

  /** A response body given before to this advertiser for this query, while the data is unchanged. */
  cachedPage(advertiserId: number, query: ReportQuery): Buffer | undefined {
    return this.live.use(() => this.pages.get(`${advertiserId}:${canonicalQueryKey(query)}`));
  }

  rememberPage(advertiserId: number, query: ReportQuery, body: Buffer): void {
    this.pages.set(`${advertiserId}:${canonicalQueryKey(query)}`, body);
  }

  /** What the caches hold now, for tests and the operator. */
  cacheUsage(): CacheUsage {
    return {
      bytes: this.reports.usedBytes + this.pages.usedBytes,
      budget: this.reports.maxBytes + this.pages.maxBytes,
      reports: this.reports.size,
      pages: this.pages.size,
      reportRows: this.reports.rows,
      reportsComputed: this.reports.computed,
    };
  }

  close(): void {
    this.live.close();
  }

  /** Forgets everything read from the database. */
  private forget(): void {
    this.keys.clear();
    this.whitelists.clear();
    this.reports.clear();
    this.pages.clear();
  }
}
