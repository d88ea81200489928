/**
 * The read side `serve` answers from, on either backend: one cache policy. Keys, whitelists and response
 * bodies are kept in memory, and reports as page maps or small reports' rows (report/computed-reports.ts),
 * all within `--cache-mb` and `--cache-rows`, until the backend sees the data change and has them forgotten.
 * What a read made across a forget() (another process revoked a key, loaded data) answers its request but
 * is not kept. The backend only runs SQL, and looks at the data's freshness before each read.
 */
import type { ReportQuery } from "../../contract";
import { Whitelist } from "../model/ip";
import { ByteBudgetCache, bufferBytes } from "../report/cache";
import { type ComputedReport, ComputedReports, planPage } from "../report/computed-reports";
import { canonicalQueryKey } from "../report/query-key";
import { computedReportKey } from "../sql/report-segments";
import type { ServeBackend } from "./backend";
import { PageReadAhead } from "./read-ahead";
import { type Awaitable, type Steps, step } from "./steps";
import type { CacheUsage, ReportPage, ServeStore, StoredKey } from "./types";

/** Times a page is placed again by a new map when the data changed under it, before it is answered anyway. */
const PAGE_ATTEMPTS = 3;
/** Pages looked for and not yet remembered, at most (see cachedPage). */
const MAX_PAGES_UNDER_WAY = 10_000;
/**
 * The share of `--cache-mb` the caches fill. The rest pays for what the C allocator keeps of the buffers they
 * free and take again (evicted pages and rows, and every page rendered on its way out): after 20 s of distinct
 * reports at --cache-mb 64, malloc_trim(0) gave back 13 MB of `serve`'s memory, 6 MB at --cache-mb 0; at 7/8
 * a 40 s flood still peaked 3 MB past the documented bound at 64 (bench/serve-abuse.ts, varied).
 */
const FILLED_SHARE = 3 / 4;

export interface CacheOptions {
  /** Bytes the computed reports and the rendered pages may hold together. */
  cacheBytes: number;
  /** Rows the computed reports may hold together. */
  cacheRows: number;
}

/** Everything read from the database and kept. */
class Kept {
  /** Counts forget(): what a read made across one is not kept. */
  generation = 0;
  /** Pages answered from a page read ahead, since the start. */
  pagesReadAhead = 0;
  /** The generation each page was first looked for in, so a page made across a forget() is not kept. */
  readonly pageGenerations = new Map<string, number>();
  readonly keys = new Map<string, StoredKey>();
  readonly whitelists = new Map<number, Whitelist>();
  /** Whole response bodies by advertiser and canonical query, for clients asking the same again. */
  readonly pages: ByteBudgetCache<Buffer>;
  readonly reports: ComputedReports;

  constructor(options: CacheOptions) {
    const filled = Math.floor(options.cacheBytes * FILLED_SHARE);
    // Pages are cheap to rebuild from a kept report, so reports get most of the budget.
    const pageBytes = Math.floor(filled / 4);
    this.pages = new ByteBudgetCache<Buffer>(pageBytes, bufferBytes);
    this.reports = new ComputedReports(filled - pageBytes, options.cacheRows);
  }

  forget(): void {
    this.generation += 1;
    this.pageGenerations.clear();
    this.keys.clear();
    this.whitelists.clear();
    this.pages.clear();
    this.reports.clear();
  }
}

/** Opens a store over the backend `connect` opens, which calls `forget` whenever the data may have changed. */
export async function openServeStore(
  options: CacheOptions,
  connect: (forget: () => void) => Awaitable<ServeBackend>,
): Promise<ServeStore> {
  const kept = new Kept(options);
  return new CachedStore(kept, await connect(() => kept.forget()));
}

class CachedStore implements ServeStore {
  private readonly ahead: PageReadAhead;

  constructor(
    private readonly kept: Kept,
    private readonly backend: ServeBackend,
  ) {
    this.ahead = new PageReadAhead(kept.reports, () => kept.generation, backend);
  }

  findKey(hash: string): Awaitable<StoredKey | undefined> {
    const kept = this.kept;
    return this.backend.read(function* (db) {
      let key = kept.keys.get(hash);
      if (!key) {
        const generation = kept.generation;
        key = yield* step(db.key(hash));
        if (key && generation === kept.generation) kept.keys.set(hash, key);
      }
      return key;
    });
  }

  whitelist(keyId: number): Awaitable<Whitelist> {
    const kept = this.kept;
    return this.backend.read(function* (db) {
      let list = kept.whitelists.get(keyId);
      if (!list) {
        const generation = kept.generation;
        list = new Whitelist(yield* step(db.keyIps(keyId)));
        if (generation === kept.generation) kept.whitelists.set(keyId, list);
      }
      return list;
    });
  }

  campaignAdvertiser(campaignId: number): Awaitable<number | undefined> {
    return this.backend.read(function* (db) {
      return yield* step(db.campaignAdvertiser(campaignId));
    });
  }

  adAdvertiser(adId: number): Awaitable<number | undefined> {
    return this.backend.read(function* (db) {
      return yield* step(db.adAdvertiser(adId));
    });
  }

  /**
   * A page of the report: its page map (or its rows) computed once and kept while the budget allows, the
   * page then read from the entities it spans (with rows after it, for the next small pages), from the data
   * its map was made from.
   */
  reportPage(query: ReportQuery, advertiserId: number, start: number, count: number): Awaitable<ReportPage> {
    const { kept, ahead } = this;
    return this.backend.snapshot(function* (db): Steps<ReportPage> {
      const key = computedReportKey(query, advertiserId);
      const answer = (report: ComputedReport, rows: string[] | Buffer): ReportPage => {
        ahead.answered(key, report, query, advertiserId, start, count);
        return { total: report.total, rows };
      };
      for (let attempt = 1; ; attempt += 1) {
        let report = kept.reports.get(key);
        const underWay = report && ahead.pending(report, start);
        if (underWay) {
          yield* step(underWay);
          report = kept.reports.get(key);
        }
        if (!report) {
          const generation = kept.generation;
          report = yield* step(db.computeReport(query, advertiserId));
          kept.reports.keep(key, report, generation === kept.generation);
        }
        const page = planPage(report, start, count);
        if (page.readAhead) kept.pagesReadAhead += 1;
        if (!page.span) return answer(report, page.rows);
        if (page.read === count && db.readJoinedPage) {
          return answer(report, yield* step(db.readJoinedPage(query, advertiserId, page.span, count)));
        }
        const read = yield* step(db.readPage(query, advertiserId, page.span, page.read));
        const current = read.version === report.version;
        if (current && read.rows.length > count) kept.reports.keepAhead(key, report, start, read.rows);
        if (current || attempt === PAGE_ATTEMPTS) return answer(report, read.rows.slice(0, count));
        // Another process wrote since the map was made: what was read before is forgotten.
        kept.forget();
        db.versionSeen?.(read.version);
      }
    });
  }

  /** A response body given before to this advertiser for this query, while the data is unchanged. */
  cachedPage(advertiserId: number, query: ReportQuery): Awaitable<Buffer | undefined> {
    const kept = this.kept;
    // biome-ignore lint/correctness/useYield: it reads nothing; what matters is the backend's look at freshness first
    return this.backend.read(function* () {
      const key = `${advertiserId}:${canonicalQueryKey(query)}`;
      const page = kept.pages.get(key);
      if (page === undefined) {
        // Bounded: requests that never come back to rememberPage (a failure) leave an entry behind.
        if (kept.pageGenerations.size >= MAX_PAGES_UNDER_WAY) kept.pageGenerations.clear();
        kept.pageGenerations.set(key, kept.generation);
      }
      return page;
    });
  }

  rememberPage(advertiserId: number, query: ReportQuery, body: Buffer): void {
    const key = `${advertiserId}:${canonicalQueryKey(query)}`;
    const generation = this.kept.pageGenerations.get(key);
    this.kept.pageGenerations.delete(key);
    if (generation === this.kept.generation) this.kept.pages.set(key, body);
  }

  /** What the caches hold now, for tests and the operator. */
  cacheUsage(): CacheUsage {
    const { reports, pages } = this.kept;
    return {
      bytes: reports.usedBytes + pages.usedBytes,
      budget: reports.maxBytes + pages.maxBytes,
      reports: reports.size,
      pages: pages.size,
      reportRows: reports.rows,
      reportsComputed: reports.computed,
      pagesReadAhead: this.kept.pagesReadAhead,
    };
  }

  close(): Awaitable<void> {
    this.kept.forget();
    return this.backend.close();
  }
}
