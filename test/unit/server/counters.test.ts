/**
 * The counter table (model/counters.ts) and what the layout, the loaders, the rollups and the reports make
 * of it (sql/fact-columns.ts): one line a counter, everything else derived.
 */
import { describe, expect, it } from "vitest";
import { METRICS } from "../../../src/contract";
import { COUNTERS, KEYWORD_COUNTERS, METRIC_COUNTERS } from "../../../src/server/model/counters";
import {
  AD_DAYS,
  AD_HOURS,
  CAMPAIGN_DAYS,
  COUNT_TABLES,
  counterColumns,
  KEYWORD_DAYS,
  KEYWORD_HOURS,
  metricColumns,
  rollupSums,
} from "../../../src/server/sql/fact-columns";
import { AD_HOUR_UPSERT, KEYWORD_HOUR_COLUMNS } from "../../../src/server/sql/fact-sql";

describe("the counter table", () => {
  it("counts every metric of the contract, money in millionths", () => {
    expect(METRIC_COUNTERS.map((c) => c.metric).sort()).toEqual([...METRICS].sort());
    expect(COUNTERS.filter((c) => c.money).map((c) => c.column)).toEqual(["spending_micros"]);
  });

  it("gives keywords the contract's keyword metrics and what is taken off them", () => {
    expect(KEYWORD_COUNTERS.map((c) => c.name)).toEqual(["views", "clicks", "bot_clicks", "spending"]);
  });

  it("takes bot clicks off clicks wherever loaded facts are summed, not in rollups", () => {
    expect(metricColumns(AD_HOURS, "f")).toBe(
      "f.views AS views, f.clicks - f.bot_clicks AS clicks, f.conversions AS conversions, f.spending_micros AS spending",
    );
    expect(metricColumns(KEYWORD_DAYS, "f")).toBe(
      "f.views AS views, f.clicks AS clicks, 0 AS conversions, f.spending_micros AS spending",
    );
    expect(rollupSums(AD_DAYS, AD_HOURS, "h")).toBe(
      "sum(h.views), sum(h.clicks - h.bot_clicks), sum(h.conversions), sum(h.spending_micros)",
    );
    expect(rollupSums(CAMPAIGN_DAYS, AD_DAYS, "d")).toBe(
      "sum(d.views), sum(d.clicks), sum(d.conversions), sum(d.spending_micros)",
    );
  });

  it("makes each table's columns and the loaders' statements", () => {
    expect(COUNT_TABLES.map((t) => `${t.name}: ${counterColumns(t)}`)).toEqual([
      "ad_hours: views, clicks, bot_clicks, conversions, spending_micros",
      "keyword_hours: views, clicks, bot_clicks, spending_micros",
      "ad_days: views, clicks, conversions, spending_micros",
      "campaign_days: views, clicks, conversions, spending_micros",
      "campaign_hours: views, clicks, conversions, spending_micros",
      "keyword_days: views, clicks, spending_micros",
    ]);
    expect(KEYWORD_HOUR_COLUMNS).toBe("keyword_id, hour, views, clicks, bot_clicks, spending_micros");
    expect(AD_HOUR_UPSERT).toBe(
      "ON CONFLICT (ad_id, hour) DO UPDATE SET views = excluded.views, clicks = excluded.clicks, bot_clicks = excluded.bot_clicks, conversions = excluded.conversions, spending_micros = excluded.spending_micros",
    );
    expect(KEYWORD_HOURS.loaded && !KEYWORD_DAYS.loaded).toBe(true);
  });
});
