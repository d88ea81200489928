/**
 * The tables of counts and their counter columns, made from the counter table (model/counters.ts) for the
 * layout, the loaders, the rollups and the reports. Hourly facts keep every counter as loaded (clicks with
 * the bot clicks in them); rollups keep the metrics as reported (valid clicks), so they are summed as they are.
 */
import { COUNTERS, type Counter, KEYWORD_COUNTERS, METRIC_COUNTERS } from "../model/counters";

export type Level = "campaign" | "ad" | "keyword";

export interface CountTable {
  name: string;
  level: Level;
  /** The entity's id column. */
  id: string;
  /** The time column: an hour's or a day's first second. */
  time: "hour" | "day";
  /** Hourly facts as loaded, rather than a rollup of them. */
  loaded: boolean;
}

const table = (level: Level, time: "hour" | "day", loaded = false): CountTable => ({
  name: `${level}_${time}s`,
  level,
  id: `${level}_id`,
  time,
  loaded,
});

export const AD_HOURS = table("ad", "hour", true);
export const KEYWORD_HOURS = table("keyword", "hour", true);
export const AD_DAYS = table("ad", "day");
export const CAMPAIGN_DAYS = table("campaign", "day");
export const CAMPAIGN_HOURS = table("campaign", "hour");
export const KEYWORD_DAYS = table("keyword", "day");

/** Every table of counts, in the layout's order. */
export const COUNT_TABLES = [AD_HOURS, KEYWORD_HOURS, AD_DAYS, CAMPAIGN_DAYS, CAMPAIGN_HOURS, KEYWORD_DAYS];

/** The counters a table holds: its level's; a rollup only those reported. */
export function countersOf(t: CountTable): readonly Counter[] {
  const ofLevel = t.level === "keyword" ? KEYWORD_COUNTERS : COUNTERS;
  return t.loaded ? ofLevel : ofLevel.filter((c) => c.metric !== undefined);
}

/** `views, clicks, ...`: the table's counter columns. */
export function counterColumns(t: CountTable): string {
  return countersOf(t)
    .map((c) => c.column)
    .join(", ");
}

/**
 * A metric counter's reported value in row `alias` of table `t`: `f.clicks - f.bot_clicks` from loaded
 * facts, the column from a rollup, `0` where the level has no such counter (a keyword's conversions).
 */
export function reportedValue(t: CountTable, counter: Counter, alias: string): string {
  if (!countersOf(t).includes(counter)) return "0";
  const deduct =
    t.loaded && counter.deductedBy !== undefined ? COUNTERS.find((c) => c.name === counter.deductedBy) : undefined;
  return deduct ? `${alias}.${counter.column} - ${alias}.${deduct.column}` : `${alias}.${counter.column}`;
}

/** `f.views AS views, f.clicks - f.bot_clicks AS clicks, ...`: each metric of a row of `t`, named as the contract names it. */
export function metricColumns(t: CountTable, alias: string): string {
  return METRIC_COUNTERS.map((c) => `${reportedValue(t, c, alias)} AS ${c.metric}`).join(", ");
}

/** `sum(h.views), sum(h.clicks - h.bot_clicks), ...`: the columns of rollup `to` summed from rows `alias` of `from`. */
export function rollupSums(to: CountTable, from: CountTable, alias: string): string {
  return countersOf(to)
    .map((c) => `sum(${reportedValue(from, c, alias)})`)
    .join(", ");
}
