/** The read side `serve` answers from: keys, ownership and reports, over a read-only connection. */
import { statSync } from "node:fs";
import { LRUCache } from "lru-cache";
import type { ReportQuery } from "../../contract";
import { ByteBudgetCache, stringBytes } from "../report/cache";
import { canonicalQueryKey } from "../report/query-key";
import { Whitelist } from "./ip";
import { reportSql, rowJsonSql, timeSegments } from "./report-sql";
import { DatabaseError, type Db } from "./schema";

type Statement<P extends unknown[] = unknown[], R = unknown> = import("better-sqlite3").Statement<P, R>;

export interface StoredKey {
  id: number;
  advertiserId: number;
  expiresAt: number | null;
  revokedAt: number | null;
}

/**
 * How long a look at the database file is trusted. Every statement outside a transaction costs file-lock
 * system calls, so keys, whitelists and reports are served from memory and the file is looked at (its
 * identity on disk and SQLite's data version) at most this often: a key revoked, data loaded or a new file
 * renamed into place while serving takes effect within this time.
 */
const FRESHNESS_MS = 250;

/** Waits between attempts to reopen a database that failed: short at first, doubling up to the last. */
const REOPEN_BACKOFF_MS = [100, 200, 400, 800, 1600, 3200, 5000] as const;

/**
 * What a computed report's temporary table costs besides its rows: its schema entry, its prepared page
 * statement and the first pages SQLite caches for it. A report without rows keeps no table.
 */
const TABLE_OVERHEAD_BYTES = 16 * 1024;
/** A stored row's record header, rowid and cell pointer, besides its JSON text. */
const ROW_OVERHEAD_BYTES = 16;
/** Rows whose size stands for all rows of a report (reading every row to measure it would cost a scan). */
const SIZE_SAMPLE_ROWS = 64;
/** Report statements kept prepared; their text varies with the shape of the query only. */
const PREPARED_REPORT_STATEMENTS = 256;

/** The database cannot be read now; the store tries to reopen it after `retryAfterSeconds`. */
export class DatabaseUnavailableError extends Error {
  override readonly name = "DatabaseUnavailableError";
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** A computed report, its rows as JSON text in a temporary table of `db`, read a page at a time. */
interface Materialized {
  db: Db;
  table: string | undefined;
  total: number;
  bytes: number;
  page: Statement<[number, number], string> | undefined;
}

/** One page of a report: the rows' JSON and the report's row count. */
export interface ReportPage {
  total: number;
  rows: string[];
}

export interface StoreOptions {
  /** Bytes the computed reports and the rendered pages may hold together. */
  cacheBytes: number;
  /** Rows the computed reports may hold together. */
  cacheRows: number;
  /** A monotonic clock in milliseconds; tests pass their own. */
  nowMs?: (() => number) | undefined;
  /** Receives a line when the database is reopened or fails. */
  log?: ((line: string) => void) | undefined;
}

function preparedStatements(db: Db) {
  return {
    dataVersion: db.prepare("PRAGMA data_version").pluck(),
    key: db.prepare<[string], StoredKey>(
      "SELECT id, advertiser_id AS advertiserId, expires_at AS expiresAt, revoked_at AS revokedAt FROM api_keys WHERE hash = ?",
    ),
    ips: db.prepare<[number], { ip: string }>("SELECT ip FROM key_ips WHERE key_id = ?"),
    campaign: db.prepare<[number], { advertiserId: number }>(
      "SELECT advertiser_id AS advertiserId FROM campaigns WHERE id = ?",
    ),
    ad: db.prepare<[number], { advertiserId: number }>(
      "SELECT c.advertiser_id AS advertiserId FROM ads a JOIN campaigns c ON c.id = a.campaign_id WHERE a.id = ?",
    ),
  };
}

interface Connection {
  db: Db;
  /** The file's device, inode, size and modification time when it was opened. */
  identity: string;
  version: unknown;
  stmt: ReturnType<typeof preparedStatements>;
  reportStatements: LRUCache<string, Statement>;
}

/** What tells one file on disk from another, or from itself changed: `mv new.db db` gives a new inode. */
function fileIdentity(path: string): string {
  const s = statSync(path, { bigint: true });
  return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}`;
}

function dropTable(report: Materialized): void {
  if (report.table === undefined || !report.db.open) return;
  try {
    report.db.exec(`DROP TABLE IF EXISTS temp.${report.table}`);
  } catch {
    // The connection is failing and about to be closed, and its temporary tables go with it.
  }
}

export class ReportStore {
  private conn: Connection | undefined;
  private checkedAt = Number.NEGATIVE_INFINITY;
  private failures = 0;
  private retryAt = 0;
  private readonly keys = new Map<string, StoredKey>();
  private readonly whitelists = new Map<number, Whitelist>();
  /** Computed reports, so the pages of one report cost one aggregation and memory holds none of them. */
  private readonly reports: ByteBudgetCache<Materialized>;
  private reportRows = 0;
  private tables = 0;
  /** Whole response bodies by advertiser and canonical query, for clients asking the same again. */
  private readonly pages: ByteBudgetCache<string>;
  private readonly nowMs: () => number;
  private readonly cacheRows: number;

  /** Opens the database at once: a file that cannot be served fails here, before anything listens. */
  constructor(
    private readonly path: string,
    private readonly open: (path: string) => Db,
    private readonly options: StoreOptions,
  ) {
    this.nowMs = options.nowMs ?? (() => performance.now());
    this.cacheRows = options.cacheRows;
    // Pages are cheap to rebuild from a kept report, so reports get most of the budget.
    const pageBytes = Math.floor(options.cacheBytes / 4);
    this.pages = new ByteBudgetCache<string>(pageBytes, stringBytes);
    this.reports = new ByteBudgetCache<Materialized>(
      options.cacheBytes - pageBytes,
      (report) => report.bytes,
      (report) => {
        this.reportRows -= report.total;
        dropTable(report);
      },
    );
    this.conn = this.connect();
    this.checkedAt = this.nowMs();
  }

  findKey(hash: string): StoredKey | undefined {
    return this.use((c) => {
      let key = this.keys.get(hash);
      if (!key) {
        key = c.stmt.key.get(hash);
        if (key) this.keys.set(hash, key);
      }
      return key;
    });
  }

  whitelist(keyId: number): Whitelist {
    return this.use((c) => {
      let list = this.whitelists.get(keyId);
      if (!list) {
        list = new Whitelist(c.stmt.ips.all(keyId).map((r) => r.ip));
        this.whitelists.set(keyId, list);
      }
      return list;
    });
  }

  campaignAdvertiser(campaignId: number): number | undefined {
    return this.use((c) => c.stmt.campaign.get(campaignId)?.advertiserId);
  }

  adAdvertiser(adId: number): number | undefined {
    return this.use((c) => c.stmt.ad.get(adId)?.advertiserId);
  }

  /** A page of the report, computed once into a temporary table (kept while the budget allows). */
  reportPage(query: ReportQuery, advertiserId: number, start: number, count: number): ReportPage {
    return this.use((c) => {
      const segments = timeSegments(query, false);
      const key = JSON.stringify([
        advertiserId,
        query.entity,
        query.byDate && query.granularity,
        segments?.hourly,
        segments?.daily,
        query.campaignId,
        query.adId,
        query.metrics,
      ]);
      let report = this.reports.get(key);
      let keptElsewhere = true;
      if (!report) {
        report = this.materialize(c, query, advertiserId);
        keptElsewhere = this.keep(key, report);
      }
      try {
        const rows = report.page && start < report.total ? report.page.all(start, count) : [];
        return { total: report.total, rows };
      } finally {
        // A report too large for the budget serves the request that computed it, then goes.
        if (!keptElsewhere) dropTable(report);
      }
    });
  }

  /** A response body given before to this advertiser for this query, while the data is unchanged. */
  cachedPage(advertiserId: number, query: ReportQuery): string | undefined {
    return this.use(() => this.pages.get(`${advertiserId}:${canonicalQueryKey(query)}`));
  }

  rememberPage(advertiserId: number, query: ReportQuery, body: string): void {
    this.pages.set(`${advertiserId}:${canonicalQueryKey(query)}`, body);
  }

  /** What the caches hold now, for tests and the operator. */
  cacheUsage(): { bytes: number; budget: number; reports: number; pages: number; reportRows: number } {
    return {
      bytes: this.reports.usedBytes + this.pages.usedBytes,
      budget: this.reports.maxBytes + this.pages.maxBytes,
      reports: this.reports.size,
      pages: this.pages.size,
      reportRows: this.reportRows,
    };
  }

  close(): void {
    this.disconnect();
  }

  private keep(key: string, report: Materialized): boolean {
    if (report.total > this.cacheRows || !this.reports.set(key, report)) return false;
    this.reportRows += report.total;
    while (this.reportRows > this.cacheRows && this.reports.size > 1) this.reports.evictOldest();
    return true;
  }

  private connect(): Connection {
    // Looked at before opening, so a file renamed into place meanwhile is seen as a change at the next look;
    // a missing file is left to `open`, which says so in the operator's terms.
    let identity: string | undefined;
    try {
      identity = fileIdentity(this.path);
    } catch {
      identity = undefined;
    }
    const db = this.open(this.path);
    identity ??= fileIdentity(this.path);
    const stmt = preparedStatements(db);
    return {
      db,
      identity,
      version: stmt.dataVersion.get(),
      stmt,
      reportStatements: new LRUCache<string, Statement>({ max: PREPARED_REPORT_STATEMENTS }),
    };
  }

  /** Forgets everything read from the database. */
  private forget(): void {
    this.keys.clear();
    this.whitelists.clear();
    this.reports.clear();
    this.pages.clear();
  }

  private disconnect(): void {
    this.forget();
    const db = this.conn?.db;
    this.conn = undefined;
    try {
      db?.close();
    } catch {
      // Closing a connection to a broken file may fail; it is let go either way.
    }
  }

  /**
   * The open connection, checked at most every FRESHNESS_MS: reopened when the path now names another file
   * (or the file was rewritten), caches dropped when another connection changed the data.
   */
  private connection(): Connection {
    const now = this.nowMs();
    if (this.conn && now - this.checkedAt < FRESHNESS_MS) return this.conn;
    if (!this.conn && now < this.retryAt) throw this.unavailable(now);
    this.checkedAt = now;
    try {
      if (this.conn && fileIdentity(this.path) !== this.conn.identity) {
        this.options.log?.(`database ${this.path} changed on disk; reopening it`);
        this.disconnect();
      }
      if (this.conn) {
        const version = this.conn.stmt.dataVersion.get();
        if (version !== this.conn.version) {
          this.conn.version = version;
          this.forget();
        }
        return this.conn;
      }
      this.conn = this.connect();
      if (this.failures > 0) this.options.log?.(`database ${this.path} reopened`);
      this.failures = 0;
      return this.conn;
    } catch (error) {
      throw this.fail(error, now);
    }
  }

  /** Runs `work` on the connection; a database failure closes it and answers "unavailable" meanwhile. */
  private use<T>(work: (c: Connection) => T): T {
    const c = this.connection();
    try {
      return work(c);
    } catch (error) {
      if (isDatabaseFailure(error)) throw this.fail(error, this.nowMs());
      throw error;
    }
  }

  private fail(error: unknown, now: number): DatabaseUnavailableError {
    if (error instanceof DatabaseUnavailableError) return error;
    const wait = REOPEN_BACKOFF_MS[Math.min(this.failures, REOPEN_BACKOFF_MS.length - 1)] as number;
    this.failures += 1;
    this.retryAt = now + wait;
    if (this.failures === 1 || this.conn) {
      this.options.log?.(
        `database error: ${(error as Error).message}; reopening ${this.path} (answering 503 meanwhile)`,
      );
    }
    this.disconnect();
    return this.unavailable(now);
  }

  private unavailable(now: number): DatabaseUnavailableError {
    const seconds = Math.max(1, Math.ceil((this.retryAt - now) / 1000));
    return new DatabaseUnavailableError("the database is being reopened; try again shortly", seconds);
  }

  private materialize(c: Connection, query: ReportQuery, advertiserId: number): Materialized {
    const empty: Materialized = { db: c.db, table: undefined, total: 0, bytes: 0, page: undefined };
    const plan = reportSql(query, advertiserId);
    if (!plan) return empty;
    this.tables += 1;
    const table = `report_${this.tables}`;
    c.db.exec(`CREATE TEMP TABLE ${table} (n INTEGER PRIMARY KEY, json TEXT NOT NULL)`);
    const sql = `INSERT INTO temp.${table} SELECT row_number() OVER (ORDER BY eid, bucket), ${rowJsonSql(query)} FROM (${plan.sql})`;
    let fill = c.reportStatements.get(sql);
    if (!fill) {
      fill = c.db.prepare(sql);
      c.reportStatements.set(sql, fill);
    }
    const total = fill.run(plan.params).changes;
    if (total === 0) {
      c.db.exec(`DROP TABLE temp.${table}`);
      return empty;
    }
    const sampleBytes = c.db
      .prepare<[number], number>(`SELECT avg(length(CAST(json AS BLOB))) FROM temp.${table} WHERE n <= ?`)
      .pluck()
      .get(SIZE_SAMPLE_ROWS) as number;
    const page = c.db
      .prepare<[number, number], string>(`SELECT json FROM temp.${table} WHERE n > ? ORDER BY n LIMIT ?`)
      .pluck();
    const bytes = TABLE_OVERHEAD_BYTES + Math.ceil(total * (sampleBytes + ROW_OVERHEAD_BYTES));
    return { db: c.db, table, total, bytes, page };
  }
}

/** An error of the file under us (SQLite's, a missing or foreign file), not of the caller's request. */
function isDatabaseFailure(error: unknown): boolean {
  if (error instanceof DatabaseError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && (code.startsWith("SQLITE_") || code === "ENOENT");
}
