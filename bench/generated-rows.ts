/**
 * One million hourly `ad,date` rows made up in memory, a page of 1,000 at a time: what the writers alone are
 * measured on (bench/target-writers.ts, columnar.ts, duckdb.ts), so each compares with the others on the
 * same rows. Names carry a comma and quotes, as real ones do.
 */
import type { ReportMeta, ReportRequest, RowPage } from "../src/contract";

export const GENERATED_ROWS = 1_000_000;
const ADS = 2_500;
const START = Date.UTC(2026, 8, 27) / 1000;
const METRICS: ReportMeta["metrics"] = ["views", "spending", "clicks", "conversions"];

export const generatedMeta: ReportMeta = {
  granularity: "hourly",
  dimensions: ["ad", "date"],
  metrics: METRICS,
  total: GENERATED_ROWS,
  page: 1,
  limit: 1000,
  has_more: false,
};

export const generatedRequest: ReportRequest = {
  from: "2026-09-27",
  to: "2026-10-14",
  metrics: ["views", "spending", "clicks", "conversions"],
  dimensions: ["ad", "date"],
  granularity: "hour",
};

export async function* generatedPages(): AsyncGenerator<RowPage> {
  const hours = GENERATED_ROWS / ADS;
  let rows = [];
  for (let ad = 1; ad <= ADS; ad += 1) {
    for (let h = 0; h < hours; h += 1) {
      rows.push({
        dimensions: { ad_id: ad, name: `Ad ${ad}, "spring"`, campaign_id: Math.ceil(ad / 50), date: START + h * 3600 },
        metrics: {
          views: 100 + h,
          spending: Math.round((ad * 1.234567 + h) * 1e6) / 1e6,
          clicks: h % 7,
          conversions: h % 3,
        },
      });
      if (rows.length === 1000) {
        yield { rows };
        rows = [];
      }
    }
  }
  if (rows.length > 0) yield { rows };
}
