/** The read side `serve` answers from: keys, ownership and reports, over a read-only connection. */
import type { ReportQuery } from "../../contract";
import { ReportCache } from "../report/cache";
import { rowJson, type SqlRow } from "../report/rows";
import { Whitelist } from "./ip";
import { reportSql, timeSegments } from "./report-sql";
import type { Db } from "./schema";

export interface StoredKey {
  id: number;
  advertiserId: number;
  expiresAt: number | null;
  revokedAt: number | null;
}

export class ReportStore {
  private readonly statements = new Map<string, ReturnType<Db["prepare"]>>();
  private readonly whitelists = new Map<number, Whitelist>();
  private readonly cache: ReportCache;
  private whitelistVersion: number | undefined;
  private readonly stmt;

  constructor(
    private readonly db: Db,
    options: { cacheRows: number },
  ) {
    this.cache = new ReportCache(options.cacheRows);
    this.stmt = {
      key: db.prepare<[string], StoredKey>(
        "SELECT id, advertiser_id AS advertiserId, expires_at AS expiresAt, revoked_at AS revokedAt FROM api_keys WHERE hash = ?",
      ),
      ips: db.prepare<[number], { ip: string }>("SELECT ip FROM key_ips WHERE key_id = ?"),
      campaign: db.prepare<[number], { advertiserId: number }>(
        "SELECT advertiser_id AS advertiserId FROM campaigns WHERE id = ?",
      ),
      ad: db.prepare<[number], { advertiserId: number; campaignId: number }>(
        "SELECT c.advertiser_id AS advertiserId, a.campaign_id AS campaignId FROM ads a JOIN campaigns c ON c.id = a.campaign_id WHERE a.id = ?",
      ),
    };
  }

  private dataVersion(): number {
    return this.db.pragma("data_version", { simple: true }) as number;
  }

  findKey(hash: string): StoredKey | undefined {
    return this.stmt.key.get(hash);
  }

  whitelist(keyId: number): Whitelist {
    const version = this.dataVersion();
    if (version !== this.whitelistVersion) {
      this.whitelists.clear();
      this.whitelistVersion = version;
    }
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

  adOwner(adId: number): { advertiserId: number; campaignId: number } | undefined {
    return this.stmt.ad.get(adId);
  }

  /** Every row of the report, as JSON, in the contract's order. */
  reportRows(query: ReportQuery, advertiserId: number): string[] {
    this.cache.sync(this.dataVersion());
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
    const cached = this.cache.get(key);
    if (cached) return cached;
    const rows = this.compute(query, advertiserId);
    this.cache.set(key, rows);
    return rows;
  }

  private compute(query: ReportQuery, advertiserId: number): string[] {
    const plan = reportSql(query, advertiserId);
    if (!plan) return [];
    let statement = this.statements.get(plan.sql);
    if (!statement) {
      statement = this.db.prepare(plan.sql);
      this.statements.set(plan.sql, statement);
    }
    const rows: string[] = [];
    for (const row of statement.iterate(plan.params) as IterableIterator<SqlRow>) rows.push(rowJson(query, row));
    return rows;
  }
}
