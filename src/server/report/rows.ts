/** Turns result rows of report-sql into the API's row JSON (contract.md A3), serialised once. */
import type { Metric, ReportQuery } from "../../contract";

export interface SqlRow {
  eid: number;
  bucket: number;
  views: number;
  clicks: number;
  conversions: number;
  spending: number;
  name?: string;
  campaign_id?: number;
}

function dimensionsOf(query: ReportQuery, row: SqlRow): Record<string, string | number> {
  const dims: Record<string, string | number> = {};
  switch (query.entity) {
    case "campaign":
      dims.campaign_id = row.eid;
      dims.name = row.name ?? "";
      break;
    case "ad":
      dims.ad_id = row.eid;
      dims.name = row.name ?? "";
      dims.campaign_id = row.campaign_id ?? 0;
      break;
    case "keyword":
      dims.keyword_id = row.eid;
      dims.name = row.name ?? "";
      break;
    case undefined:
      break;
  }
  if (query.byDate) dims.date = row.bucket;
  return dims;
}

function metricValue(metric: Metric, row: SqlRow): number {
  return metric === "spending" ? row.spending / 1e6 : row[metric];
}

export function rowJson(query: ReportQuery, row: SqlRow): string {
  const metrics: Record<string, number> = {};
  for (const metric of query.metrics) metrics[metric] = metricValue(metric, row);
  return JSON.stringify({ dimensions: dimensionsOf(query, row), metrics });
}
