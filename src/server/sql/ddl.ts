/**
 * The layout of `serve`, declared once for both backends. Facts are hourly per ad and per keyword; money is
 * integer millionths. Day rollups per ad, campaign and keyword, and hour rollups per campaign, keep 90-day
 * reports cheap (they are kept by the loader, rollup-sql.ts, not materialised views: a refresh would
 * recompute every day where a load recomputes only the days it touched). PostgreSQL adds `data_version`,
 * bumped by every write, so each `serve` process knows when what it keeps in memory is stale (SQLite has
 * PRAGMA data_version).
 */
import type { SqlDialect } from "./dialect";
import { COUNT_TABLES, type CountTable, countersOf } from "./fact-columns";

interface Table {
  name: string;
  /** Columns and constraints; INT is a 64-bit integer, ID an id the database assigns. */
  columns: string;
  /** Keyed by its primary key alone. */
  clustered?: true;
  /** Only in this dialect. */
  only?: SqlDialect["name"];
}

/** A table of counts: its entity and time, then its counters (sql/fact-columns.ts). */
const countTable = (t: CountTable): Table => ({
  name: t.name,
  columns: [
    `${t.id} INT NOT NULL, ${t.time} INT NOT NULL`,
    ...countersOf(t).map((c) => `${c.column} INT NOT NULL`),
    `PRIMARY KEY (${t.id}, ${t.time})`,
  ].join(", "),
  clustered: true,
});

const TABLES: readonly Table[] = [
  { name: "schema_info", columns: "key TEXT PRIMARY KEY, value TEXT NOT NULL" },
  {
    name: "data_version",
    columns: "id smallint PRIMARY KEY CHECK (id = 1), version INT NOT NULL",
    only: "postgres",
  },
  { name: "advertisers", columns: "id ID, name TEXT NOT NULL UNIQUE" },
  {
    name: "campaigns",
    columns: "id INT PRIMARY KEY, advertiser_id INT NOT NULL REFERENCES advertisers(id), name TEXT NOT NULL",
  },
  { name: "ads", columns: "id INT PRIMARY KEY, campaign_id INT NOT NULL REFERENCES campaigns(id), name TEXT NOT NULL" },
  { name: "keywords", columns: "id INT PRIMARY KEY, ad_id INT NOT NULL REFERENCES ads(id), name TEXT NOT NULL" },
  ...COUNT_TABLES.map(countTable),
  {
    name: "api_keys",
    columns:
      "id ID, advertiser_id INT NOT NULL REFERENCES advertisers(id), hash TEXT NOT NULL UNIQUE, hint TEXT NOT NULL, created_at INT NOT NULL, expires_at INT, revoked_at INT, replaced_by INT REFERENCES api_keys(id)",
  },
  {
    name: "key_ips",
    columns: "key_id INT NOT NULL REFERENCES api_keys(id), ip TEXT NOT NULL, PRIMARY KEY (key_id, ip)",
  },
];

/** Indexes by parent, for listing an advertiser's campaigns, a campaign's ads, an ad's keywords. */
const INDEXES = [
  "campaigns_by_advertiser ON campaigns(advertiser_id, id)",
  "ads_by_campaign ON ads(campaign_id, id)",
  "keywords_by_ad ON keywords(ad_id, id)",
];

/** The names of the dialect's tables: a database holding any of them but no schema_info is not ours to fill. */
export function tableNames(dialect: SqlDialect): string[] {
  return TABLES.filter((t) => t.only === undefined || t.only === dialect.name).map((t) => t.name);
}

/** A column list's INT and ID in the dialect's types. */
export function columnsIn(dialect: SqlDialect, columns: string): string {
  return columns.replace(/\bID\b/g, dialect.identity).replace(/\bINT\b/g, dialect.integer);
}

/** The CREATE statements of the layout, each ending with `;`. */
export function createStatements(dialect: SqlDialect): string {
  const tables = TABLES.filter((t) => t.only === undefined || t.only === dialect.name).map(
    (t) =>
      `CREATE TABLE IF NOT EXISTS ${t.name} (${columnsIn(dialect, t.columns)})${t.clustered ? dialect.clustered : ""};`,
  );
  const indexes = INDEXES.map((index) => `CREATE INDEX IF NOT EXISTS ${index};`);
  return [...tables, ...indexes].join("\n");
}
