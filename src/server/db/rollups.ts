/**
 * The rollups (ad, campaign and keyword days, campaign hours) recomputed for just the days a load touched.
 * The touched (entity, day) pairs are kept in temporary tables, not in memory, so a load of any size uses
 * the same memory.
 */
import type { Db } from "./schema";

/** Creates the temporary tables of touched days on this connection (once; later calls change nothing). */
export function createTouchedDays(db: Db): void {
  db.exec(`
    CREATE TEMP TABLE IF NOT EXISTS touched_ad_days (ad_id INTEGER NOT NULL, day INTEGER NOT NULL, PRIMARY KEY (ad_id, day)) WITHOUT ROWID;
    CREATE TEMP TABLE IF NOT EXISTS touched_keyword_days (keyword_id INTEGER NOT NULL, day INTEGER NOT NULL, PRIMARY KEY (keyword_id, day)) WITHOUT ROWID;
    CREATE TEMP TABLE IF NOT EXISTS touched_campaign_days (campaign_id INTEGER NOT NULL, day INTEGER NOT NULL, PRIMARY KEY (campaign_id, day)) WITHOUT ROWID;
  `);
}

/** Recomputes the rollups of every touched day, then forgets the touched days. */
export function recomputeTouchedRollups(db: Db): void {
  db.exec(`
    DELETE FROM ad_days WHERE (ad_id, day) IN (SELECT ad_id, day FROM touched_ad_days);
    INSERT INTO ad_days (ad_id, day, views, clicks, conversions, spending_micros)
      SELECT t.ad_id, t.day, sum(h.views), sum(h.clicks - h.bot_clicks), sum(h.conversions), sum(h.spending_micros)
      FROM touched_ad_days t JOIN ad_hours h ON h.ad_id = t.ad_id AND h.hour >= t.day AND h.hour < t.day + 86400
      GROUP BY t.ad_id, t.day;

    INSERT OR IGNORE INTO touched_campaign_days (campaign_id, day)
      SELECT a.campaign_id, t.day FROM touched_ad_days t JOIN ads a ON a.id = t.ad_id;
    DELETE FROM campaign_days WHERE (campaign_id, day) IN (SELECT campaign_id, day FROM touched_campaign_days);
    INSERT INTO campaign_days (campaign_id, day, views, clicks, conversions, spending_micros)
      SELECT t.campaign_id, t.day, sum(d.views), sum(d.clicks), sum(d.conversions), sum(d.spending_micros)
      FROM touched_campaign_days t JOIN ads a ON a.campaign_id = t.campaign_id JOIN ad_days d ON d.ad_id = a.id AND d.day = t.day
      GROUP BY t.campaign_id, t.day;
    DELETE FROM campaign_hours WHERE (campaign_id, hour) IN (
      SELECT h.campaign_id, h.hour FROM touched_campaign_days t
      JOIN campaign_hours h ON h.campaign_id = t.campaign_id AND h.hour >= t.day AND h.hour < t.day + 86400);
    INSERT INTO campaign_hours (campaign_id, hour, views, clicks, conversions, spending_micros)
      SELECT t.campaign_id, h.hour, sum(h.views), sum(h.clicks - h.bot_clicks), sum(h.conversions), sum(h.spending_micros)
      FROM touched_campaign_days t JOIN ads a ON a.campaign_id = t.campaign_id
        JOIN ad_hours h ON h.ad_id = a.id AND h.hour >= t.day AND h.hour < t.day + 86400
      GROUP BY t.campaign_id, h.hour;

    DELETE FROM keyword_days WHERE (keyword_id, day) IN (SELECT keyword_id, day FROM touched_keyword_days);
    INSERT INTO keyword_days (keyword_id, day, views, clicks, spending_micros)
      SELECT t.keyword_id, t.day, sum(h.views), sum(h.clicks - h.bot_clicks), sum(h.spending_micros)
      FROM touched_keyword_days t JOIN keyword_hours h ON h.keyword_id = t.keyword_id AND h.hour >= t.day AND h.hour < t.day + 86400
      GROUP BY t.keyword_id, t.day;

    DELETE FROM touched_ad_days;
    DELETE FROM touched_campaign_days;
    DELETE FROM touched_keyword_days;
  `);
}
