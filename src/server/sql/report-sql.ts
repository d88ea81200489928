/**
 * The SQL of a report. Full days in the range come from day rollups and the partial days at its edges from
 * hourly rows, so a 90-day report reads about 90 rows per entity whatever the range's hours. Buckets are
 * computed in SQL and the result comes sorted as the contract orders rows: entity id, then bucket. The
 * dialect's differences are in dialect.ts; everything else is written once.
 */
import { DIMENSION_KEYS, type Granularity, type ReportQuery } from "../../contract";
import { metricKind } from "../../core/metric-kind";
import { METRIC_COUNTERS } from "../model/counters";
import { SQLITE_DIALECT, type SqlDialect } from "./dialect";
import {
  AD_DAYS,
  AD_HOURS,
  CAMPAIGN_DAYS,
  CAMPAIGN_HOURS,
  type CountTable,
  KEYWORD_DAYS,
  KEYWORD_HOURS,
  type Level,
  metricColumns,
} from "./fact-columns";
import { timeSegments } from "./report-segments";

export type { Level };

/** The metrics every fact row carries, as the contract names them, in column order. */
const METRIC_NAMES = METRIC_COUNTERS.map((c) => c.metric);

/** The hourly and the daily table of counts of each level. */
export const TABLES: Record<Level, { hours: CountTable; days: CountTable }> = {
  campaign: { hours: CAMPAIGN_HOURS, days: CAMPAIGN_DAYS },
  ad: { hours: AD_HOURS, days: AD_DAYS },
  keyword: { hours: KEYWORD_HOURS, days: KEYWORD_DAYS },
};

/** Which entities of the advertiser the facts come from: joins, and the id the fact table is keyed by. */
const SCOPE: Record<Level, { from: string; factKey: string }> = {
  campaign: { from: "campaigns c", factKey: "c.id" },
  ad: { from: "campaigns c JOIN ads a ON a.campaign_id = c.id", factKey: "a.id" },
  keyword: {
    from: "campaigns c JOIN ads a ON a.campaign_id = c.id JOIN keywords k ON k.ad_id = a.id",
    factKey: "k.id",
  },
};

/** The id rows are grouped by: the requested entity's, which may be coarser than the facts' level. */
const ENTITY_ID: Record<Level, string> = { campaign: "c.id", ad: "a.id", keyword: "k.id" };

function bucketSql(granularity: Granularity, dialect: SqlDialect): string {
  if (granularity === "hour") return "t";
  if (granularity === "day") return "t - t % 86400";
  if (granularity === "week") return "(t - t % 86400) - ((t / 86400 + 3) % 7) * 86400";
  return dialect.monthStart;
}

const NAMES: Record<Level, { join: string; columns: string }> = {
  campaign: { join: "JOIN campaigns n ON n.id = g.eid", columns: "n.name AS name, NULL AS campaign_id" },
  ad: { join: "JOIN ads n ON n.id = g.eid", columns: "n.name AS name, n.campaign_id AS campaign_id" },
  keyword: { join: "JOIN keywords n ON n.id = g.eid", columns: "n.name AS name, NULL AS campaign_id" },
};

export interface SqlPlan {
  sql: string;
  params: Record<string, number>;
}

/** The SQL of each key of a row's `dimensions`; the keys and their order come from the contract. */
function dimensionValueSql(entity: Level | undefined, key: string, dialect: SqlDialect): string {
  if (key === "date") return "bucket";
  if (key === "name") return dialect.quote("coalesce(name, '')");
  if (entity !== undefined && key === `${entity}_id`) return "eid";
  if (key === "campaign_id") return "campaign_id";
  throw new Error(`no SQL for the dimension key ${key}`);
}

/**
 * The API row (docs/service.md §4) as JSON text, built by the database while the report is computed, so a page is
 * only read, never serialised again. Its columns are those reportSql returns.
 */
export function rowJsonSql(query: ReportQuery, dialect: SqlDialect = SQLITE_DIALECT): string {
  const dimensions = query.dimensions.flatMap((dimension) =>
    DIMENSION_KEYS[dimension].map((key) => `'"${key}":' || ${dimensionValueSql(query.entity, key, dialect)}`),
  );
  const metrics = query.metrics.map((m) => `'"${m}":' || ${metricKind(m) === "money" ? dialect.moneyText(m) : m}`);
  return `'{"dimensions":{' || ${dimensions.length > 0 ? dimensions.join(" || ',' || ") : "''"} || '},"metrics":{' || ${metrics.join(" || ',' || ")} || '}}'`;
}

export function levelOf(query: ReportQuery): Level {
  if (query.entity === "keyword") return "keyword";
  if (query.entity === "ad" || query.adId !== undefined) return "ad";
  return "campaign";
}

/** The report's fact rows (eid, t, then each metric: views, clicks, ...) as parts of a UNION ALL, or none. */
export interface FactParts {
  parts: string[];
  params: Record<string, number>;
  level: Level;
  /** The advertiser's entities' join and its filters, for a statement listing the report's entities. */
  scope: { from: string; where: string };
}

/** The conditions every report's facts meet: the advertiser's, and the query's campaign or ad. */
export function advertiserFilters(
  query: ReportQuery,
  advertiserId: number,
): { filters: string[]; params: Record<string, number> } {
  const params: Record<string, number> = { adv: advertiserId };
  const filters = ["c.advertiser_id = @adv"];
  if (query.campaignId !== undefined) {
    filters.push("c.id = @campaign");
    params.campaign = query.campaignId;
  }
  if (query.adId !== undefined) {
    filters.push("a.id = @ad");
    params.ad = query.adId;
  }
  return { filters, params };
}

/** `where` narrows every part further (an entity range): its parameters are the caller's to add. */
export function factParts(query: ReportQuery, advertiserId: number, where?: string): FactParts {
  const level = levelOf(query);
  const segments = timeSegments(query, query.byDate && query.granularity === "hour");
  const { filters, params } = advertiserFilters(query, advertiserId);
  const scope = { from: SCOPE[level].from, where: filters.join(" AND ") };
  if (where) filters.push(where);
  const t = TABLES[level];
  const parts: string[] = [];
  const addPart = (table: CountTable, lo: number, hi: number) => {
    const n = parts.length;
    params[`lo${n}`] = lo;
    params[`hi${n}`] = hi;
    parts.push(
      `SELECT ${query.entity ? ENTITY_ID[query.entity] : "0"} AS eid, f.${table.time} AS t, ${metricColumns(table, "f")}
       FROM ${scope.from} JOIN ${table.name} f ON f.${table.id} = ${SCOPE[level].factKey} AND f.${table.time} BETWEEN @lo${n} AND @hi${n}
       WHERE ${filters.join(" AND ")}`,
    );
  };
  if (segments?.daily) addPart(t.days, segments.daily[0], segments.daily[1]);
  for (const [lo, hi] of segments?.hourly ?? []) addPart(t.hours, lo, hi);
  return { parts, params, level, scope };
}

/** The id an entity report's rows are grouped by, as the fact parts name it. */
export function entityIdSql(query: ReportQuery): string | undefined {
  return query.entity ? ENTITY_ID[query.entity] : undefined;
}

/** The bucket of a fact's `t`: the start of its hour, day, ISO week or month. */
export function bucketOf(query: ReportQuery, dialect: SqlDialect): string {
  return query.byDate ? bucketSql(query.granularity, dialect) : "0";
}

/**
 * The statement for a report, or undefined when the range holds no whole hour. Its columns are always
 * eid, bucket, each metric (views, clicks, ...), name, campaign_id (the caller orders by eid, bucket).
 * Parameters: `adv`, and `campaign` / `ad` when the query filters on them; with `entities` (an entity report
 * only), rows `@skip` to `@skip + @limit` of the entities with ids `@efrom` to `@eto`, the names joined to
 * those rows alone.
 */
export function reportSql(
  query: ReportQuery,
  advertiserId: number,
  dialect: SqlDialect = SQLITE_DIALECT,
  entities?: { from: number; to: number },
): SqlPlan | undefined {
  const id = entityIdSql(query);
  const range = entities && id ? `${id} BETWEEN @efrom AND @eto` : undefined;
  const { parts, params } = factParts(query, advertiserId, range);
  if (range && entities) Object.assign(params, { efrom: entities.from, eto: entities.to });
  const sums = METRIC_NAMES.map((m) => `coalesce(sum(${m}), 0) AS ${m}`).join(", ");
  if (!query.entity && !query.byDate) {
    // The grand total: always exactly one row, zeros when there is nothing.
    const source =
      parts.length > 0
        ? parts.join(" UNION ALL ")
        : `SELECT ${METRIC_NAMES.map((m) => `0 AS ${m}`).join(", ")} WHERE ${dialect.never}`;
    return {
      sql: `SELECT 0 AS eid, 0 AS bucket, ${sums}, NULL AS name, NULL AS campaign_id FROM (${source}) s`,
      params,
    };
  }
  if (parts.length === 0) return undefined;
  const source = parts.join(" UNION ALL ");
  const groupBy = [query.entity ? "eid" : undefined, query.byDate ? "bucket" : undefined].filter(Boolean).join(", ");
  const grouped = `SELECT ${query.entity ? "eid" : "0 AS eid"}, ${bucketOf(query, dialect)} AS bucket, ${sums} FROM (${source}) s GROUP BY ${groupBy}`;
  if (!query.entity) return { sql: `SELECT *, NULL AS name, NULL AS campaign_id FROM (${grouped}) g`, params };
  const names = NAMES[query.entity];
  const rows = range ? `SELECT * FROM (${grouped}) x ORDER BY eid, bucket LIMIT @limit OFFSET @skip` : grouped;
  return { sql: `SELECT g.*, ${names.columns} FROM (${rows}) g ${names.join}`, params };
}
