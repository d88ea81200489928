/**
 * An independent, deliberately naive reference of contract.md A3: sums the NDJSON lines a test loaded,
 * bucketing with Date arithmetic (not the server's SQL), to check every report the server gives.
 */
export interface RefLine {
  advertiser: string;
  campaign_id: number;
  campaign: string;
  ad_id: number;
  ad: string;
  keyword_id?: number;
  keyword?: string;
  hour: string;
  views: number;
  clicks: number;
  bot_clicks: number;
  spending: number;
  conversions?: number;
}

export interface RefQuery {
  advertiser: string;
  fromMs: number;
  toMs: number;
  metrics: string[];
  entity?: "campaign" | "ad" | "keyword";
  byDate: boolean;
  granularity: "hour" | "day" | "week" | "month";
  campaignId?: number;
  adId?: number;
}

function bucketStart(ms: number, granularity: RefQuery["granularity"]): number {
  const d = new Date(ms);
  switch (granularity) {
    case "hour":
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours());
    case "day":
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
    case "week": {
      const mondayOffset = (d.getUTCDay() + 6) % 7;
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - mondayOffset);
    }
    case "month":
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  }
}

export function referenceRows(
  lines: readonly RefLine[],
  q: RefQuery,
): Array<{ dimensions: Record<string, unknown>; metrics: Record<string, number> }> {
  const groups = new Map<
    string,
    { sortKey: [number, number]; dims: Record<string, unknown>; sums: Record<string, number> }
  >();
  for (const line of lines) {
    const isKeyword = line.keyword_id !== undefined;
    if (isKeyword !== (q.entity === "keyword")) continue;
    if (line.advertiser !== q.advertiser) continue;
    if (q.campaignId !== undefined && line.campaign_id !== q.campaignId) continue;
    if (q.adId !== undefined && line.ad_id !== q.adId) continue;
    const ms = Date.parse(line.hour);
    if (ms < q.fromMs || ms > q.toMs) continue;
    const dims: Record<string, unknown> = {};
    let entityId = 0;
    if (q.entity === "campaign") {
      entityId = line.campaign_id;
      Object.assign(dims, { campaign_id: line.campaign_id, name: line.campaign });
    } else if (q.entity === "ad") {
      entityId = line.ad_id;
      Object.assign(dims, { ad_id: line.ad_id, name: line.ad, campaign_id: line.campaign_id });
    } else if (q.entity === "keyword") {
      entityId = line.keyword_id as number;
      Object.assign(dims, { keyword_id: line.keyword_id, name: line.keyword });
    }
    const bucket = q.byDate ? bucketStart(ms, q.granularity) : 0;
    if (q.byDate) dims.date = bucket / 1000;
    const key = `${entityId}|${bucket}`;
    let group = groups.get(key);
    if (!group) {
      group = { sortKey: [entityId, bucket], dims, sums: { views: 0, clicks: 0, conversions: 0, spendingMicros: 0 } };
      groups.set(key, group);
    }
    group.sums.views = (group.sums.views ?? 0) + line.views;
    group.sums.clicks = (group.sums.clicks ?? 0) + line.clicks - line.bot_clicks;
    group.sums.conversions = (group.sums.conversions ?? 0) + (line.conversions ?? 0);
    group.sums.spendingMicros = (group.sums.spendingMicros ?? 0) + Math.round(line.spending * 1e6);
  }
  if (!q.entity && !q.byDate && groups.size === 0) {
    groups.set("total", {
      sortKey: [0, 0],
      dims: {},
      sums: { views: 0, clicks: 0, conversions: 0, spendingMicros: 0 },
    });
  }
  return [...groups.values()]
    .sort((a, b) => a.sortKey[0] - b.sortKey[0] || a.sortKey[1] - b.sortKey[1])
    .map((g) => ({
      dimensions: g.dims,
      metrics: Object.fromEntries(
        q.metrics.map((m) => [m, m === "spending" ? (g.sums.spendingMicros ?? 0) / 1e6 : (g.sums[m] ?? 0)]),
      ),
    }));
}
