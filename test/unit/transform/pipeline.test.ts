import { describe, expect, it } from "vitest";
import type { ReportMeta, ReportRow, RowPage } from "../../../src/contract";
import type { ReportStream } from "../../../src/contract/report-stream";
import { utcBuckets } from "../../../src/transform/buckets";
import { shapeMetrics } from "../../../src/transform/metrics";
import { transformReport } from "../../../src/transform/pipeline";

const DAY = 86_400;
const D0 = Date.UTC(2026, 9, 1) / 1000;

function stream(rows: ReportRow[], metrics: string[], sent = false): ReportStream {
  const meta: ReportMeta = {
    granularity: "daily",
    dimensions: ["campaign", "date"],
    metrics,
    total: rows.length,
    page: 1,
    limit: 1000,
    has_more: false,
  };
  const page: RowPage = sent ? { rows, sent: { body: new Uint8Array(), spans: () => undefined } } : { rows };
  return {
    meta,
    totalKnown: true,
    pages: (async function* () {
      yield page;
    })(),
  };
}

async function rowsOf(report: ReportStream): Promise<ReportRow[]> {
  const rows: ReportRow[] = [];
  for await (const page of report.pages) rows.push(...page.rows);
  return rows;
}

const row = (id: number, day: number, clicks: number, views: number): ReportRow => ({
  dimensions: { campaign_id: id, name: `c${id}`, date: D0 + day * DAY },
  metrics: { clicks, views },
});

describe("transformReport", () => {
  it("hands a plain export over untouched, pages as sent", async () => {
    const report = stream([row(1, 0, 1, 10)], ["clicks", "views"], true);
    const plan = { metrics: { listed: ["clicks", "views"], compare: false }, totals: false };
    expect(transformReport(report, plan)).toBe(report);
  });

  it("fills each entity's gaps at both edges of the range, zeros from the counters fetched", async () => {
    const report = stream([row(1, 1, 2, 20), row(2, 0, 1, 10), row(2, 3, 1, 10)], ["clicks", "views"]);
    const out = transformReport(report, {
      metrics: { listed: ["clicks", "ctr"], compare: false },
      fill: { fromSec: D0, toSec: D0 + 4 * DAY - 1, clock: utcBuckets("day"), entityKey: "campaign_id" },
      totals: true,
    });
    const rows = await rowsOf(out);
    expect(
      rows.map((r) => [r.dimensions.campaign_id, (Number(r.dimensions.date) - D0) / DAY, r.metrics.clicks]),
    ).toEqual([
      [1, 0, 0],
      [1, 1, 2],
      [1, 2, 0],
      [1, 3, 0],
      [2, 0, 1],
      [2, 1, 0],
      [2, 2, 0],
      [2, 3, 1],
    ]);
    expect(rows[0]).toEqual({
      dimensions: { campaign_id: 1, name: "c1", date: D0 },
      metrics: { clicks: 0, ctr: null },
    });
    expect(rows[1]?.metrics).toEqual({ clicks: 2, ctr: 0.1 });
    expect(out.totalKnown).toBe(false);
    expect(out.totals?.()).toEqual({ rows: 8, metrics: { clicks: 4, ctr: 4 / 40 } });
  });

  it("writes a long gap in pages of at most 1000 rows", async () => {
    const empty = { ...stream([], ["views"]), meta: { ...stream([], ["views"]).meta, dimensions: ["date"] } };
    const year = Date.UTC(2025, 0, 1) / 1000;
    const out = transformReport(empty, {
      metrics: { listed: ["views"], compare: false },
      fill: { fromSec: year, toSec: Date.UTC(2026, 0, 1) / 1000 - 1, clock: utcBuckets("hour"), entityKey: undefined },
      totals: false,
    });
    const sizes: number[] = [];
    let last = 0;
    for await (const page of out.pages) {
      sizes.push(page.rows.length);
      last = Number(page.rows.at(-1)?.dimensions.date);
    }
    expect(Math.max(...sizes)).toBe(1000);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(365 * 24);
    expect(last).toBe(Date.UTC(2025, 11, 31, 23) / 1000);
  });

  it("a comparison's _prev counters give ratios of the previous period and every change", () => {
    const metrics = { clicks: 30, views: 600, clicks_prev: 20, views_prev: 0 };
    expect(shapeMetrics(metrics, { listed: ["ctr", "clicks"], compare: true })).toEqual({
      ctr: 0.05,
      ctr_prev: null,
      ctr_change: null,
      clicks: 30,
      clicks_prev: 20,
      clicks_change: 0.5,
    });
  });

  it("a ratio that overflows has no value rather than Infinity", () => {
    expect(
      shapeMetrics({ spending: 1e308, views: 1, clicks: 0 }, { listed: ["cpm", "cpc", "spending"], compare: false }),
    ).toEqual({
      cpm: null,
      cpc: null,
      spending: 1e308,
    });
  });
});
