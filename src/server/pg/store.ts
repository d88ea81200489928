/**
 * The read side of `serve` on PostgreSQL. Keys, whitelists and response bodies are kept in memory, as on
 * SQLite, and forgotten when data_version (bumped by every write, from any process) changes: it is read at
 * most every FRESHNESS_MS, one read shared by the requests waiting for it. Reports are paged as on SQLite
 * (report/computed-reports.ts): a page map or a small report's rows kept, each page computed by the database
 * from the entities it spans, and read from the same data version as its map.
 */
import type pg from "pg";
import type { ReportQuery } from "../../contract";
import { type CacheUsage, databaseLabel, type ReportPage, type ServeStore } from "../backend";
import { Whitelist } from "../db/ip";
import { DatabaseUnavailableError, FRESHNESS_MS, type StoredKey } from "../db/live-connection";
import { ByteBudgetCache, bufferBytes } from "../report/cache";
import { ComputedReports } from "../report/computed-reports";
import { canonicalQueryKey } from "../report/query-key";
import { createPool, databaseFailure, inTransaction } from "./pool";
import { reportPage } from "./report-reader";
import { checkSchema } from "./schema";

export interface PostgresStoreOptions {
  /** Bytes the computed reports and the rendered pages may hold together. */
  cacheBytes: number;
  /** Rows the computed reports may hold together. */
  cacheRows: number;
  /** Connections to the database at most. */
  poolSize: number;
  nowMs?: (() => number) | undefined;
  log?: ((line: string) => void) | undefined;
}

/** A report statement running longer is cancelled and answered 503: a caller waits no longer than this. */
const STATEMENT_TIMEOUT_MS = 300_000;
const CONNECT_TIMEOUT_MS = 5_000;
/** After the database failed, requests are answered 503 at once for this long, not each left to wait for it. */
const DOWN_MS = 1_000;

/** Pages looked for and not yet remembered, at most (see cachedPage). */
const MAX_PAGES_UNDER_WAY = 10_000;

export class PostgresServeStore implements ServeStore {
  /**
   * Counts forget(): what a query read across one (another process revoked a key, loaded data) is answered
   * once but not kept. SQLite's store cannot interleave like this: it is synchronous.
   */
  private generation = 0;
  /** The generation each page was first looked for in, so a page made across a forget() is not kept. */
  private readonly pageGenerations = new Map<string, number>();
  private readonly keys = new Map<string, StoredKey>();
  private readonly whitelists = new Map<number, Whitelist>();
  private readonly pages: ByteBudgetCache<Buffer>;
  private readonly reports: ComputedReports;
  private version: number | undefined;
  private checkedAt = Number.NEGATIVE_INFINITY;
  private checking: Promise<void> | undefined;
  /** Until then (nowMs), the database is taken as down. */
  private downUntil = Number.NEGATIVE_INFINITY;
  private readonly nowMs: () => number;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly label: string,
    private readonly options: PostgresStoreOptions,
  ) {
    // As on SQLite: pages are cheap to rebuild from a kept report, so reports get most of the budget.
    const pageBytes = Math.floor(options.cacheBytes / 4);
    this.pages = new ByteBudgetCache<Buffer>(pageBytes, bufferBytes);
    this.reports = new ComputedReports(options.cacheBytes - pageBytes, options.cacheRows);
    this.nowMs = options.nowMs ?? (() => performance.now());
  }

  /** Connects and checks the layout at once: a database that cannot be served fails here, before anything listens. */
  static async open(url: string, options: PostgresStoreOptions): Promise<PostgresServeStore> {
    const label = databaseLabel(url);
    const pool = createPool(url, {
      max: options.poolSize,
      statementTimeoutMs: STATEMENT_TIMEOUT_MS,
      connectTimeoutMs: CONNECT_TIMEOUT_MS,
    });
    try {
      await inTransaction(pool, label, (client) => checkSchema(client, label));
    } catch (error) {
      await pool.end();
      throw error;
    }
    const store = new PostgresServeStore(pool, label, options);
    await store.fresh();
    return store;
  }

  async findKey(hash: string): Promise<StoredKey | undefined> {
    await this.fresh();
    let key = this.keys.get(hash);
    if (!key) {
      const generation = this.generation;
      key = (
        await this.query<StoredKey>(
          'SELECT id, advertiser_id AS "advertiserId", expires_at AS "expiresAt", revoked_at AS "revokedAt" FROM api_keys WHERE hash = $1',
          [hash],
        )
      )[0];
      if (key && generation === this.generation) this.keys.set(hash, key);
    }
    return key;
  }

  async whitelist(keyId: number): Promise<Whitelist> {
    await this.fresh();
    let list = this.whitelists.get(keyId);
    if (!list) {
      const generation = this.generation;
      const rows = await this.query<{ ip: string }>("SELECT ip FROM key_ips WHERE key_id = $1", [keyId]);
      list = new Whitelist(rows.map((r) => r.ip));
      if (generation === this.generation) this.whitelists.set(keyId, list);
    }
    return list;
  }

  async campaignAdvertiser(campaignId: number): Promise<number | undefined> {
    await this.fresh();
    const rows = await this.query<{ a: number }>("SELECT advertiser_id AS a FROM campaigns WHERE id = $1", [
      campaignId,
    ]);
    return rows[0]?.a;
  }

  async adAdvertiser(adId: number): Promise<number | undefined> {
    await this.fresh();
    const rows = await this.query<{ a: number }>(
      "SELECT c.advertiser_id AS a FROM ads d JOIN campaigns c ON c.id = d.campaign_id WHERE d.id = $1",
      [adId],
    );
    return rows[0]?.a;
  }

  async reportPage(query: ReportQuery, advertiserId: number, start: number, count: number): Promise<ReportPage> {
    await this.fresh();
    return await this.guard(() =>
      reportPage(
        this.pool,
        this.reports,
        { query, advertiserId, start, count },
        {
          generation: () => this.generation,
          changed: (version) => {
            // Another process wrote since the map was made: what was read before is forgotten.
            this.forget();
            this.version = version;
          },
        },
      ),
    );
  }

  async cachedPage(advertiserId: number, query: ReportQuery): Promise<Buffer | undefined> {
    await this.fresh();
    const key = `${advertiserId}:${canonicalQueryKey(query)}`;
    const page = this.pages.get(key);
    if (page === undefined) {
      // Bounded: requests that never come back to rememberPage (a failure) leave an entry behind.
      if (this.pageGenerations.size >= MAX_PAGES_UNDER_WAY) this.pageGenerations.clear();
      this.pageGenerations.set(key, this.generation);
    }
    return page;
  }

  rememberPage(advertiserId: number, query: ReportQuery, body: Buffer): void {
    const key = `${advertiserId}:${canonicalQueryKey(query)}`;
    const generation = this.pageGenerations.get(key);
    this.pageGenerations.delete(key);
    if (generation === this.generation) this.pages.set(key, body);
  }

  cacheUsage(): CacheUsage {
    return {
      bytes: this.pages.usedBytes + this.reports.usedBytes,
      budget: this.pages.maxBytes + this.reports.maxBytes,
      reports: this.reports.size,
      pages: this.pages.size,
      reportRows: this.reports.rows,
      reportsComputed: this.reports.computed,
    };
  }

  async close(): Promise<void> {
    this.forget();
    await this.pool.end();
  }

  /** Reads data_version at most every FRESHNESS_MS; when another process wrote, forgets what was read. */
  private async fresh(): Promise<void> {
    const now = this.nowMs();
    if (now - this.checkedAt < FRESHNESS_MS) return;
    if (now < this.downUntil) {
      throw new DatabaseUnavailableError("the database cannot be used now; try again shortly", 1);
    }
    this.checking ??= (async () => {
      try {
        const rows = await this.query<{ version: number }>("SELECT version FROM data_version WHERE id = 1");
        const version = rows[0]?.version;
        if (version !== this.version) {
          this.version = version;
          this.forget();
        }
        this.checkedAt = this.nowMs();
      } finally {
        this.checking = undefined;
      }
    })();
    await this.checking;
  }

  private async query<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> {
    return await this.guard(async () => (await this.pool.query<R>({ text, values })).rows);
  }

  /** Runs work on the database; its failures become 503 (or, for a statement PostgreSQL cannot run, 500). */
  private async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      // A statement of ours PostgreSQL cannot run (syntax, data: classes 42 and 22, bar a missing right or a
      // table gone, as in a restore) is a bug and answered 500; anything else (down, busy, restarting,
      // refusing connections) is 503 until it passes, as SQLite answers a table gone.
      const code = (error as { code?: unknown }).code;
      if (typeof code === "string" && /^(42|22)/.test(code) && code !== "42501" && code !== "42P01") throw error;
      const failure = databaseFailure(error, this.label) as Error;
      // Keys may be revoked while the database is out of reach: nothing read before is trusted after.
      this.forget();
      this.version = undefined;
      this.checkedAt = Number.NEGATIVE_INFINITY;
      const now = this.nowMs();
      if (now >= this.downUntil) this.options.log?.(`database error: ${failure.message}; answering 503 meanwhile`);
      this.downUntil = now + DOWN_MS;
      throw new DatabaseUnavailableError("the database cannot be used now; try again shortly", 1);
    }
  }

  private forget(): void {
    this.generation += 1;
    this.pageGenerations.clear();
    this.keys.clear();
    this.whitelists.clear();
    this.pages.clear();
    this.reports.clear();
  }
}
