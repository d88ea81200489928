/** The read side `serve` answers from: keys, ownership and reports, over a read-only connection. */
import type { ReportQuery } from "../../contract";
import { BoundedCache } from "../report/cache";
import { Whitelist } from "./ip";
import { reportSql, rowJsonSql, timeSegments } from "./report-sql";
import type { Db } from "./schema";

type Statement<P extends unknown[] = unknown[], R = unknown> = import("better-sqlite3").Statement<P, R>;

export interface StoredKey {
  id: number;
  advertiserId: number;
  expiresAt: number | null;
  revokedAt: number | null;
}

/**
 * How long a look at the database's data version is trusted. Every statement outside a transaction costs
 * file-lock system calls, so keys, whitelists and reports are served from memory and the version is looked
 * at most this often: a key revoked or data loaded while serving takes effect within this time.
 */
const FRESHNESS_MS = 250;

/** A computed report, its rows as JSON text in a temporary table of this connection, read a page at a time. */
interface Materialized {
  table: string;
  total: number;
  page: Statement<[number, number], string> | undefined;
}

/** A report ready to be paged: `rows` gives the JSON of each row of a page. */
export interface ReportResult {
  total: number;
  rows(start: number, count: number): string[];
}

export class ReportStore {
  private readonly statements = new Map<string, Statement>();
  private readonly keys = new Map<string, StoredKey>();
  private readonly whitelists = new Map<number, Whitelist>();
  /** Computed reports, so the pages of one report cost one aggregation and memory holds none of them. */
  private readonly reports: BoundedCache<Materialized>;
  private tables = 0;
  /** Whole response bodies by advertiser and query string, for clients asking the same again. */
  private readonly pages = new BoundedCache<string>(8 * 1024 * 1024, (body) => body.length);
  private version: number | undefined;
  private checkedAt = Number.NEGATIVE_INFINITY;
  private readonly stmt;

  constructor(
    private readonly db: Db,
    options: { cacheRows: number },
  ) {
    this.reports = new BoundedCache<Materialized>(
      options.cacheRows,
      (report) => report.total,
      (report) => this.db.exec(`DROP TABLE IF EXISTS temp.${report.table}`),
    );
    this.stmt = {
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

  /** Forgets everything read from the database when another connection has changed it. */
  private refresh(): void {
    const now = performance.now();
    if (now - this.checkedAt < FRESHNESS_MS) return;
    this.checkedAt = now;
    const version = this.stmt.dataVersion.get() as number;
    if (version === this.version) return;
    this.version = version;
    this.keys.clear();
    this.whitelists.clear();
    this.reports.clear();
    this.pages.clear();
  }

  findKey(hash: string): StoredKey | undefined {
    this.refresh();
    let key = this.keys.get(hash);
    if (!key) {
      key = this.stmt.key.get(hash);
      if (key) this.keys.set(hash, key);
    }
    return key;
  }

  whitelist(keyId: number): Whitelist {
    this.refresh();
    let list = this.whitelists.get(keyId);
    if (!list) {
      list = new Whitelist(this.stmt.ips.all(keyId).map((r) => r.ip));
      this.whitelists.set(keyId, list);
    }
    return list;
  }

  campaignAdvertiser(campaignId: number): number | undefined {
    return this.stmt.campaign.get(campaignId)?.advertiserId;
  }

  adAdvertiser(adId: number): number | undefined {
    return this.stmt.ad.get(adId)?.advertiserId;
  }

  /** The report, computed once into a temporary table (kept while the budget allows), pages read from it. */
  report(query: ReportQuery, advertiserId: number): ReportResult {
    this.refresh();
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
    if (!report) {
      report = this.materialize(query, advertiserId);
      this.reports.set(key, report);
    }
    const { total, page } = report;
    return { total, rows: (start, count) => (page ? page.all(start, count) : []) };
  }

  /** A response body given before to this advertiser for this exact query string, while the data is unchanged. */
  cachedPage(advertiserId: number, queryString: string): string | undefined {
    this.refresh();
    return this.pages.get(`${advertiserId}?${queryString}`);
  }

  rememberPage(advertiserId: number, queryString: string, body: string): void {
    this.pages.set(`${advertiserId}?${queryString}`, body);
  }

  private materialize(query: ReportQuery, advertiserId: number): Materialized {
    this.tables += 1;
    const table = `report_${this.tables}`;
    const plan = reportSql(query, advertiserId);
    if (!plan) return { table, total: 0, page: undefined };
    this.db.exec(`CREATE TEMP TABLE ${table} (n INTEGER PRIMARY KEY, json TEXT NOT NULL)`);
    const sql = `INSERT INTO temp.${table} SELECT row_number() OVER (ORDER BY eid, bucket), ${rowJsonSql(query)} FROM (${plan.sql})`;
    let fill = this.statements.get(sql);
    if (!fill) {
      fill = this.db.prepare(sql);
      this.statements.set(sql, fill);
    }
    const total = fill.run(plan.params).changes;
    const page = this.db
      .prepare<[number, number], string>(`SELECT json FROM temp.${table} WHERE n > ? ORDER BY n LIMIT ?`)
      .pluck();
    return { table, total, page };
  }
}
