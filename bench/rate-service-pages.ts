/**
 * Pages of a synthetic report for bench/rate-service.ts, written apart from `serve` and src/contract: a
 * valid request gets rows of the contract's shape (docs/service.md §4), deterministic, one for every
 * entity and bucket of the range, in order; anything it cannot read is a 400 with the contract's body.
 */

const ENTITY_KEYS: Record<string, readonly string[]> = {
  campaign: ["campaign_id", "name"],
  ad: ["ad_id", "name", "campaign_id"],
  keyword: ["keyword_id", "name"],
};
const METRICS = new Set(["views", "spending", "clicks", "conversions"]);
const GRANULARITIES: Record<string, string> = { hour: "hourly", day: "daily", week: "weekly", month: "monthly" };
const KNOWN = new Set(["from", "to", "metrics", "dimensions", "granularity", "campaign_id", "ad_id", "page", "limit"]);
const HOUR = 3600;
const DAY = 86_400;

export type PageAnswer = { status: 200; body: string } | { status: 400; body: string };

function refuse(message: string, param: string): PageAnswer {
  return { status: 400, body: JSON.stringify({ error: { status: 400, code: "invalid_parameter", message, param } }) };
}

function epoch(text: string | null, end: boolean): number | undefined {
  if (text === null) return undefined;
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(text);
  const ms = Date.parse(dateOnly ? `${text}T00:00:00Z` : text);
  if (Number.isNaN(ms)) return undefined;
  return Math.floor(ms / 1000) + (dateOnly && end ? DAY - 1 : 0);
}

function bucketStart(hour: number, granularity: string): number {
  if (granularity === "hour") return hour;
  const day = hour - (hour % DAY);
  if (granularity === "day") return day;
  const date = new Date(day * 1000);
  if (granularity === "week") return day - ((date.getUTCDay() + 6) % 7) * DAY;
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) / 1000;
}

function nextBucket(start: number, granularity: string): number {
  if (granularity === "hour") return start + HOUR;
  if (granularity === "day") return start + DAY;
  if (granularity === "week") return start + 7 * DAY;
  const date = new Date(start * 1000);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) / 1000;
}

function buckets(from: number, to: number, granularity: string): number[] {
  const first = Math.ceil(from / HOUR) * HOUR;
  const last = Math.floor(to / HOUR) * HOUR;
  const starts: number[] = [];
  if (first > last) return starts;
  for (let at = bucketStart(first, granularity); at <= last; at = nextBucket(at, granularity)) starts.push(at);
  return starts;
}

function entityDimensions(kind: string, id: number): Record<string, number | string> {
  if (kind === "ad") return { ad_id: id, name: `Ad ${id}`, campaign_id: Math.ceil(id / 3) };
  if (kind === "keyword") return { keyword_id: id, name: `keyword ${id}` };
  return { campaign_id: id, name: `Campaign ${id}` };
}

function metricValues(names: readonly string[], seed: number): Record<string, number> {
  const views = (seed * 7919) % 5000;
  const clicks = Math.floor(views / 20);
  const all: Record<string, number> = {
    views,
    clicks,
    conversions: Math.floor(clicks / 5),
    spending: Math.round(clicks * 37.25) / 100,
  };
  return Object.fromEntries(names.map((name) => [name, all[name] as number]));
}

/** The answer to `GET /v1/report?<query>` over `entities` campaigns, ads or keywords. */
export function reportPage(query: URLSearchParams, entities: number): PageAnswer {
  for (const name of query.keys()) if (!KNOWN.has(name)) return refuse(`unknown parameter ${name}`, name);
  const from = epoch(query.get("from"), false);
  const to = epoch(query.get("to"), true);
  if (from === undefined) return refuse("from: expected a date or date-time", "from");
  if (to === undefined || to < from || to - from > 90 * DAY)
    return refuse("to: a date after from, within 90 days", "to");
  const metrics = (query.get("metrics") ?? "").split(",");
  if (!metrics.every((m) => METRICS.has(m))) return refuse("metrics: views, spending, clicks, conversions", "metrics");
  const dimensions = (query.get("dimensions") ?? "").split(",").filter((d) => d !== "");
  const entity = dimensions.find((d) => d in ENTITY_KEYS);
  if (!dimensions.every((d) => d === "date" || d in ENTITY_KEYS)) return refuse("dimensions: unknown", "dimensions");
  const word = (query.get("granularity") ?? "day").toLowerCase();
  const granularity = Object.keys(GRANULARITIES).find((g) => g === word || GRANULARITIES[g] === word);
  if (granularity === undefined) return refuse("granularity: hour, day, week or month", "granularity");
  const limit = Math.min(1000, Number(query.get("limit") ?? "100"));
  const page = Number(query.get("page") ?? "1");
  if (!Number.isInteger(limit) || limit < 1) return refuse("limit: a whole number from 1", "limit");
  if (!Number.isInteger(page) || page < 1) return refuse("page: a whole number from 1", "page");

  const byDate = dimensions.includes("date");
  const starts = byDate ? buckets(from, to, granularity) : [0];
  const ids = entity ? entities : 1;
  const total = byDate && starts.length === 0 ? 0 : ids * starts.length;
  const data: object[] = [];
  for (let i = (page - 1) * limit; i < Math.min(total, page * limit); i += 1) {
    const id = Math.floor(i / starts.length) + 1;
    const start = starts[i % starts.length] as number;
    data.push({
      dimensions: { ...(entity ? entityDimensions(entity, id) : {}), ...(byDate ? { date: start } : {}) },
      metrics: metricValues(metrics, id * 131 + (start / HOUR) * 7 + 1),
    });
  }
  const meta = {
    granularity: byDate ? GRANULARITIES[granularity] : "total",
    dimensions: [...(entity ? [entity] : []), ...(byDate ? ["date"] : [])],
    metrics,
    total,
    page,
    limit,
    has_more: page * limit < total,
  };
  return { status: 200, body: JSON.stringify({ meta, data }) };
}
