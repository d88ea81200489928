/**
 * The SQL of the restatement model (restate/model.ts), the same on both backends. The facts as loaded are
 * kept aside (restate_base_*, keyed by hour first so a day is a range); the tables `serve` reads hold the
 * facts as they read at the clock, rewritten only for the days whose state a move of the clock changes, with
 * their rollups (rollup-sql.ts). So `serve` reads exactly as without the model: its SQL, its caches and its
 * paging are untouched, and a move of the clock is a write that each `serve` sees as one.
 */
import { COUNTERS, type CounterName, KEYWORD_COUNTERS } from "../model/counters";
import { columnsIn } from "./ddl";
import type { SqlDialect } from "./dialect";
import { AD_HOURS, type CountTable, counterColumns, KEYWORD_HOURS } from "./fact-columns";
import { recomputeRollupsSql, touchedTablesSql } from "./rollup-sql";

export const MODEL_TABLE = "restate_model";

/** A base table: the loaded facts of `t`, keyed by hour, then entity. */
const baseName = (t: CountTable) => `restate_base_${t.name}`;

function baseTableSql(dialect: SqlDialect, t: CountTable): string {
  const counters = (t === KEYWORD_HOURS ? KEYWORD_COUNTERS : COUNTERS).map((c) => `${c.column} INT NOT NULL`);
  const columns = [`hour INT NOT NULL, ${t.id} INT NOT NULL`, ...counters, `PRIMARY KEY (hour, ${t.id})`].join(", ");
  return `CREATE TABLE ${baseName(t)} (${columnsIn(dialect, columns)})${dialect.clustered}`;
}

/** The model's tables, made when a model is seeded (a database without one has none of them). */
export function createModelSql(dialect: SqlDialect): string[] {
  return [
    `CREATE TABLE ${MODEL_TABLE} (${columnsIn(dialect, "id INT PRIMARY KEY CHECK (id = 1), seed INT NOT NULL, horizon_days INT NOT NULL, clock INT NOT NULL")})`,
    baseTableSql(dialect, AD_HOURS),
    baseTableSql(dialect, KEYWORD_HOURS),
    `CREATE TABLE restate_deleted_ads (${columnsIn(dialect, "ad_id INT PRIMARY KEY REFERENCES ads(id), deleted_at INT NOT NULL")})`,
    `CREATE TABLE restate_pairs (${columnsIn(dialect, "ad_id INT PRIMARY KEY REFERENCES ads(id), partner_id INT NOT NULL REFERENCES ads(id)")})`,
    `INSERT INTO ${baseName(AD_HOURS)} (hour, ad_id, ${counterColumns(AD_HOURS)}) SELECT hour, ad_id, ${counterColumns(AD_HOURS)} FROM ad_hours`,
    `INSERT INTO ${baseName(KEYWORD_HOURS)} (hour, keyword_id, ${counterColumns(KEYWORD_HOURS)}) SELECT hour, keyword_id, ${counterColumns(KEYWORD_HOURS)} FROM keyword_hours`,
    dialect.analyze(baseName(AD_HOURS)),
    dialect.analyze(baseName(KEYWORD_HOURS)),
  ].filter((s) => s !== "");
}

export function dropModelSql(): string[] {
  return [
    `DROP TABLE ${MODEL_TABLE}`,
    "DROP TABLE restate_deleted_ads",
    "DROP TABLE restate_pairs",
    `DROP TABLE ${baseName(AD_HOURS)}`,
    `DROP TABLE ${baseName(KEYWORD_HOURS)}`,
  ];
}

/** One row, column `n`: 1 when the database holds a model. */
export function modelExistsSql(dialect: SqlDialect): string {
  return dialect.name === "sqlite"
    ? `SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = '${MODEL_TABLE}'`
    : `SELECT count(*)::int AS n FROM pg_class WHERE relkind IN ('r', 'p') AND relname = '${MODEL_TABLE}' AND relnamespace = current_schema()::regnamespace`;
}

export const MODEL_ROW_SQL = `SELECT seed, horizon_days, clock FROM ${MODEL_TABLE} WHERE id = 1`;
export const INSERT_MODEL_SQL = `INSERT INTO ${MODEL_TABLE} (id, seed, horizon_days, clock) VALUES (1, @seed, @horizon, @clock)`;
export const UPDATE_MODEL_SQL = `UPDATE ${MODEL_TABLE} SET seed = @seed, horizon_days = @horizon, clock = @clock WHERE id = 1`;
export const SET_CLOCK_SQL = `UPDATE ${MODEL_TABLE} SET clock = @clock WHERE id = 1`;
export const DELETED_ADS_SQL = "SELECT ad_id, deleted_at FROM restate_deleted_ads ORDER BY ad_id";
export const INSERT_DELETED_SQL = "INSERT INTO restate_deleted_ads (ad_id, deleted_at) VALUES (@ad, @at)";
export const CLEAR_DELETED_SQL = "DELETE FROM restate_deleted_ads";
export const CLEAR_PAIRS_SQL = "DELETE FROM restate_pairs";
export const INSERT_PAIR_SQL = "INSERT INTO restate_pairs (ad_id, partner_id) VALUES (@ad, @partner)";
/** Every ad with its campaign and advertiser, for the pairs. */
export const ADS_SQL =
  "SELECT a.id AS ad_id, a.campaign_id, c.advertiser_id FROM ads a JOIN campaigns c ON c.id = a.campaign_id";

/**
 * The loaded data's span (first and last hour of an ad's or a keyword's), from the base tables; each end in
 * its own SELECT, which SQLite answers from the key's ends (min and max in one took 31 ms on 180,000 hours,
 * a scan).
 */
const ends = (table: string) => `(SELECT min(hour) FROM ${table}) AS lo, (SELECT max(hour) FROM ${table}) AS hi`;
export const DATA_SPAN_SQL = `SELECT min(lo) AS first_hour, max(hi) AS last_hour FROM (
  SELECT ${ends(baseName(AD_HOURS))} UNION ALL SELECT ${ends(baseName(KEYWORD_HOURS))}) s`;
export const AD_IDS_SQL = `SELECT DISTINCT ad_id FROM ${baseName(AD_HOURS)} ORDER BY ad_id`;
/** The same span from the tables `serve` reads, before a model is seeded. */
export const LOADED_SPAN_SQL = `SELECT min(lo) AS first_hour, max(hi) AS last_hour FROM (
  SELECT ${ends("ad_hours")} UNION ALL SELECT ${ends("keyword_hours")}) s`;

/** The columns of the temporary table of days to rewrite, in the order a row of it is given. */
export const DAY_COLUMNS = [
  "day",
  "visible_end",
  "conversions_missing",
  "bot_undetected",
  "views_extra",
  "spending_off",
  "moved",
] as const;

export function dayTableSql(dialect: SqlDialect): string[] {
  const columns = columnsIn(dialect, `${DAY_COLUMNS.map((c) => `${c} INT NOT NULL`).join(", ")}, PRIMARY KEY (day)`);
  const scope = dialect.name === "postgres" ? " ON COMMIT DROP" : "";
  return [`CREATE TEMP TABLE IF NOT EXISTS restate_days (${columns})${scope}`, "DELETE FROM restate_days"];
}

/** Inserts `rows` days (parameters d<i>_<column>). */
export function insertDaysSql(rows: number): string {
  const values = Array.from({ length: rows }, (_, i) => `(${DAY_COLUMNS.map((c) => `@d${i}_${c}`).join(", ")})`);
  return `INSERT INTO restate_days (${DAY_COLUMNS.join(", ")}) VALUES ${values.join(", ")}`;
}

/**
 * A counter of base row `b` as it reads on day row `r`, in integer arithmetic (division truncates the same
 * way on both backends). Each row's share of the conversions to come varies from half to 1.5 times the
 * day's, by a number its ad (or keyword) and hour give: never more than all of them (the day's is at most
 * half).
 */
function restated(name: CounterName, column: string, id: string, row = "b"): string {
  const b = `${row}.${column}`;
  switch (name) {
    case "views":
      return `${b} + ${b} * r.views_extra / 1000000`;
    case "bot_clicks":
      return `${b} - ${b} * r.bot_undetected / 1000000`;
    case "conversions":
      return `${b} - ${b} * (r.conversions_missing * (500 + (${row}.${id} * 7919 + ${row}.hour / 3600 * 104729) % 1000) / 1000) / 1000000`;
    case "spending":
      return `${b} + ${b} * r.spending_off / 1000000`;
    default:
      return b;
  }
}

/** The rows of a day in restate_days, from the base of `t`: every hour of the day, existing or not. */
const dayRows = (t: CountTable, end: "r.day + 86400" | "r.visible_end") =>
  `restate_days r JOIN ${baseName(t)} b ON b.hour >= r.day AND b.hour < ${end}`;

/** The ad a base row's data belongs to, for the deleted ads. */
const adOf = (t: CountTable) =>
  t === AD_HOURS ? { join: "", ad: "b.ad_id" } : { join: " JOIN keywords k ON k.id = b.keyword_id", ad: "k.ad_id" };

/**
 * On a day whose conversions are moved, an ad's hour shows its partner's conversions of that hour (as they
 * read at the clock) where the partner has that hour: a pair's sum, so the day's, stays.
 */
const PARTNER_JOIN = `
        LEFT JOIN restate_pairs q ON r.moved = 1 AND q.ad_id = b.ad_id
        LEFT JOIN ${baseName(AD_HOURS)} p ON p.hour = b.hour AND p.ad_id = q.partner_id`;

function valueSql(t: CountTable, name: CounterName, column: string): string {
  const own = restated(name, column, t.id);
  if (t !== AD_HOURS || name !== "conversions") return own;
  return `CASE WHEN p.ad_id IS NULL THEN ${own} ELSE ${restated(name, column, t.id, "p")} END`;
}

function rewriteTableSql(dialect: SqlDialect, t: CountTable, touched: string): string[] {
  const counters = t === KEYWORD_HOURS ? KEYWORD_COUNTERS : COUNTERS;
  const owner = adOf(t);
  return [
    dialect.insertIgnore(
      touched,
      `${t.id}, day`,
      `SELECT DISTINCT b.${t.id}, r.day FROM ${dayRows(t, "r.day + 86400")}`,
    ),
    `DELETE FROM ${t.name} WHERE (${t.id}, hour) IN (SELECT b.${t.id}, b.hour FROM ${dayRows(t, "r.day + 86400")})`,
    `INSERT INTO ${t.name} (${t.id}, hour, ${counterColumns(t)})
      SELECT b.${t.id}, b.hour, ${counters.map((c) => valueSql(t, c.name, c.column)).join(", ")}
      FROM ${dayRows(t, "r.visible_end")}${owner.join}
        LEFT JOIN restate_deleted_ads x ON x.ad_id = ${owner.ad}${t === AD_HOURS ? PARTNER_JOIN : ""}
      WHERE x.ad_id IS NULL OR b.hour < x.deleted_at`,
  ];
}

/** Splits a script of statements ending with `;` into statements. */
function statementsOf(script: string): string[] {
  return script
    .split(";")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

/**
 * Rewrites the hours of every day in restate_days from the base, as the day's row says they read, then the
 * rollups of those days.
 */
export function rewriteDaysSql(dialect: SqlDialect): string[] {
  return [
    ...statementsOf(touchedTablesSql(dialect)),
    ...rewriteTableSql(dialect, AD_HOURS, "touched_ad_days"),
    ...rewriteTableSql(dialect, KEYWORD_HOURS, "touched_keyword_days"),
    ...statementsOf(recomputeRollupsSql(dialect)),
  ];
}
