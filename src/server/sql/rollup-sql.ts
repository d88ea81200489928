/**
 * The rollups (ad, campaign and keyword days, campaign hours) recomputed for just the days a load touched,
 * the same statements on both backends. The touched (entity, day) pairs are kept in temporary tables, not
 * in memory, so a load of any size uses the same memory: SQLite keeps them for its connection and empties
 * them after each load, PostgreSQL makes them for each load's transaction.
 */
import { columnsIn } from "./ddl";
import type { SqlDialect } from "./dialect";
import {
  AD_DAYS,
  AD_HOURS,
  CAMPAIGN_DAYS,
  CAMPAIGN_HOURS,
  counterColumns,
  KEYWORD_DAYS,
  KEYWORD_HOURS,
  rollupSums,
} from "./fact-columns";

const TOUCHED = [
  ["touched_ad_days", "ad_id"],
  ["touched_keyword_days", "keyword_id"],
  ["touched_campaign_days", "campaign_id"],
] as const;

/** Creates the temporary tables of touched days (on SQLite once per connection; later calls change nothing). */
export function touchedTablesSql(dialect: SqlDialect): string {
  const scope = dialect.name === "postgres" ? " ON COMMIT DROP" : "";
  return TOUCHED.map(
    ([table, id]) =>
      `CREATE TEMP TABLE IF NOT EXISTS ${table} (${columnsIn(dialect, `${id} INT NOT NULL, day INT NOT NULL`)}, PRIMARY KEY (${id}, day))${dialect.clustered}${scope};`,
  ).join("\n");
}

/** Within a day of `day` (a midnight): `hour >= day AND hour < day + 86400`. */
const inDay = (hour: string, day: string) => `${hour} >= ${day} AND ${hour} < ${day} + 86400`;

/**
 * Recomputes the rollups of every day in touched_ad_days and touched_keyword_days (and the campaigns' days
 * they imply), then empties the touched tables.
 */
export function recomputeRollupsSql(dialect: SqlDialect): string {
  return `
    ${dialect.analyze("touched_ad_days")} ${dialect.analyze("touched_keyword_days")}
    DELETE FROM ad_days WHERE (ad_id, day) IN (SELECT ad_id, day FROM touched_ad_days);
    INSERT INTO ad_days (ad_id, day, ${counterColumns(AD_DAYS)})
      SELECT t.ad_id, t.day, ${rollupSums(AD_DAYS, AD_HOURS, "h")}
      FROM touched_ad_days t JOIN ad_hours h ON h.ad_id = t.ad_id AND ${inDay("h.hour", "t.day")}
      GROUP BY t.ad_id, t.day;

    ${dialect.insertIgnore("touched_campaign_days", "campaign_id, day", "SELECT a.campaign_id, t.day FROM touched_ad_days t JOIN ads a ON a.id = t.ad_id WHERE true")};
    ${dialect.analyze("touched_campaign_days")}
    DELETE FROM campaign_days WHERE (campaign_id, day) IN (SELECT campaign_id, day FROM touched_campaign_days);
    INSERT INTO campaign_days (campaign_id, day, ${counterColumns(CAMPAIGN_DAYS)})
      SELECT t.campaign_id, t.day, ${rollupSums(CAMPAIGN_DAYS, AD_DAYS, "d")}
      FROM touched_campaign_days t JOIN ads a ON a.campaign_id = t.campaign_id JOIN ad_days d ON d.ad_id = a.id AND d.day = t.day
      GROUP BY t.campaign_id, t.day;
    DELETE FROM campaign_hours WHERE (campaign_id, hour) IN (
      SELECT h.campaign_id, h.hour FROM touched_campaign_days t
      JOIN campaign_hours h ON h.campaign_id = t.campaign_id AND ${inDay("h.hour", "t.day")});
    INSERT INTO campaign_hours (campaign_id, hour, ${counterColumns(CAMPAIGN_HOURS)})
      SELECT t.campaign_id, h.hour, ${rollupSums(CAMPAIGN_HOURS, AD_HOURS, "h")}
      FROM touched_campaign_days t CROSS JOIN ads a CROSS JOIN ad_hours h
      WHERE a.campaign_id = t.campaign_id AND h.ad_id = a.id AND ${inDay("h.hour", "t.day")}
      GROUP BY t.campaign_id, h.hour;

    DELETE FROM keyword_days WHERE (keyword_id, day) IN (SELECT keyword_id, day FROM touched_keyword_days);
    INSERT INTO keyword_days (keyword_id, day, ${counterColumns(KEYWORD_DAYS)})
      SELECT t.keyword_id, t.day, ${rollupSums(KEYWORD_DAYS, KEYWORD_HOURS, "h")}
      FROM touched_keyword_days t JOIN keyword_hours h ON h.keyword_id = t.keyword_id AND ${inDay("h.hour", "t.day")}
      GROUP BY t.keyword_id, t.day;

    DELETE FROM touched_ad_days;
    DELETE FROM touched_campaign_days;
    DELETE FROM touched_keyword_days;
  `;
}
