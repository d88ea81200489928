/**
 * Writes entities and hourly facts into SQLite, and keeps the rollups true. Facts are upserts keyed by
 * (ad, hour) or (keyword, hour), so writing the same hour twice replaces it. Each write notes the
 * (entity, day) it touched; `finish()` recomputes the rollups of just those days (sql/rollup-sql.ts).
 */
import { AD_COUNTERS, type Counter, KEYWORD_COUNTERS } from "../model/counters";
import { ConflictError } from "../model/errors";
import { type AdFact, dayOf, type Entities, type KeywordFact } from "../model/facts";
import { SQLITE_DIALECT } from "../sql/dialect";
import { AD_HOUR_COLUMNS, AD_HOUR_UPSERT, KEYWORD_HOUR_COLUMNS, KEYWORD_HOUR_UPSERT } from "../sql/fact-sql";
import { recomputeRollupsSql, touchedTablesSql } from "../sql/rollup-sql";
import type { Db } from "./open";

/** The parameters of an hour: its entity, its hour, its counters. */
const places = (counters: readonly Counter[]) => ["?", "?", ...counters.map(() => "?")].join(", ");

interface Owner {
  parent: number;
  name: string;
}

export class FactWriter {
  private readonly advertisers = new Map<string, number>();
  private readonly campaigns = new Map<number, Owner>();
  private readonly ads = new Map<number, Owner>();
  private readonly keywords = new Map<number, Owner>();
  private readonly stmt;

  constructor(private readonly db: Db) {
    db.exec(touchedTablesSql(SQLITE_DIALECT));
    this.stmt = {
      findAdvertiser: db.prepare<[string], { id: number }>("SELECT id FROM advertisers WHERE name = ?"),
      addAdvertiser: db.prepare<[string]>("INSERT INTO advertisers (name) VALUES (?)"),
      findCampaign: db.prepare<[number], { parent: number; name: string }>(
        "SELECT advertiser_id AS parent, name FROM campaigns WHERE id = ?",
      ),
      addCampaign: db.prepare<[number, number, string]>(
        "INSERT INTO campaigns (id, advertiser_id, name) VALUES (?, ?, ?)",
      ),
      renameCampaign: db.prepare<[string, number]>("UPDATE campaigns SET name = ? WHERE id = ?"),
      findAd: db.prepare<[number], { parent: number; name: string }>(
        "SELECT campaign_id AS parent, name FROM ads WHERE id = ?",
      ),
      addAd: db.prepare<[number, number, string]>("INSERT INTO ads (id, campaign_id, name) VALUES (?, ?, ?)"),
      renameAd: db.prepare<[string, number]>("UPDATE ads SET name = ? WHERE id = ?"),
      findKeyword: db.prepare<[number], { parent: number; name: string }>(
        "SELECT ad_id AS parent, name FROM keywords WHERE id = ?",
      ),
      addKeyword: db.prepare<[number, number, string]>("INSERT INTO keywords (id, ad_id, name) VALUES (?, ?, ?)"),
      renameKeyword: db.prepare<[string, number]>("UPDATE keywords SET name = ? WHERE id = ?"),
      putAdHour: db.prepare<number[]>(
        `INSERT INTO ad_hours (${AD_HOUR_COLUMNS}) VALUES (${places(AD_COUNTERS)}) ${AD_HOUR_UPSERT}`,
      ),
      putKeywordHour: db.prepare<number[]>(
        `INSERT INTO keyword_hours (${KEYWORD_HOUR_COLUMNS}) VALUES (${places(KEYWORD_COUNTERS)}) ${KEYWORD_HOUR_UPSERT}`,
      ),
      touchAdDay: db.prepare<[number, number]>("INSERT OR IGNORE INTO touched_ad_days (ad_id, day) VALUES (?, ?)"),
      touchKeywordDay: db.prepare<[number, number]>(
        "INSERT OR IGNORE INTO touched_keyword_days (keyword_id, day) VALUES (?, ?)",
      ),
    };
  }

  writeAdHour(fact: AdFact): void {
    this.entities(fact);
    this.stmt.putAdHour.run(fact.adId, fact.hour, ...AD_COUNTERS.map((c) => fact.counts[c.name]));
    this.stmt.touchAdDay.run(fact.adId, dayOf(fact.hour));
  }

  writeKeywordHour(fact: KeywordFact): void {
    this.entities(fact);
    this.owned(
      this.keywords,
      "keyword",
      fact.keywordId,
      fact.adId,
      fact.keyword,
      "ad",
      this.stmt.findKeyword,
      () => this.stmt.addKeyword.run(fact.keywordId, fact.adId, fact.keyword),
      this.stmt.renameKeyword,
    );
    this.stmt.putKeywordHour.run(fact.keywordId, fact.hour, ...KEYWORD_COUNTERS.map((c) => fact.counts[c.name] ?? 0));
    this.stmt.touchKeywordDay.run(fact.keywordId, dayOf(fact.hour));
  }

  /** Recomputes the rollups of every day written since the last call. */
  finish(): void {
    this.db.exec(recomputeRollupsSql(SQLITE_DIALECT));
  }

  private entities(e: Entities): void {
    let advertiserId = this.advertisers.get(e.advertiser);
    if (advertiserId === undefined) {
      advertiserId = this.stmt.findAdvertiser.get(e.advertiser)?.id;
      if (advertiserId === undefined) advertiserId = Number(this.stmt.addAdvertiser.run(e.advertiser).lastInsertRowid);
      this.advertisers.set(e.advertiser, advertiserId);
    }
    const advertiser = advertiserId;
    this.owned(
      this.campaigns,
      "campaign",
      e.campaignId,
      advertiser,
      e.campaign,
      "advertiser",
      this.stmt.findCampaign,
      () => this.stmt.addCampaign.run(e.campaignId, advertiser, e.campaign),
      this.stmt.renameCampaign,
    );
    this.owned(
      this.ads,
      "ad",
      e.adId,
      e.campaignId,
      e.ad,
      "campaign",
      this.stmt.findAd,
      () => this.stmt.addAd.run(e.adId, e.campaignId, e.ad),
      this.stmt.renameAd,
    );
  }

  /** Makes sure entity `id` exists under `parent`, refusing to move it to another parent; a new name renames it. */
  private owned(
    cache: Map<number, Owner>,
    kind: string,
    id: number,
    parent: number,
    name: string,
    parentKind: string,
    find: { get(id: number): Owner | undefined },
    insert: () => unknown,
    rename: { run(name: string, id: number): unknown },
  ): void {
    let known = cache.get(id);
    if (known === undefined) {
      known = find.get(id);
      if (known === undefined) {
        insert();
        known = { parent, name };
      }
      cache.set(id, known);
    }
    if (known.parent !== parent) {
      throw new ConflictError(`${kind} ${id} already belongs to another ${parentKind}`);
    }
    if (known.name !== name) {
      rename.run(name, id);
      known.name = name;
    }
  }
}
