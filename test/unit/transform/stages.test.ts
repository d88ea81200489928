/**
 * The --tz and --compare stages on row streams made here: a bucket cut by a page boundary, rows out of
 * order (exit 5, never a duplicated bucket), dates that are not epoch seconds.
 */
import { describe, expect, it } from "vitest";
import type { ReportMeta, ReportRow, RowPage } from "../../../src/contract";
import type { ReportStream } from "../../../src/contract/report-stream";
import { UnavailableError } from "../../../src/core/errors";
import { TimeZone } from "../../../src/core/time-zone";
import { utcBuckets } from "../../../src/transform/buckets";
import { compareWithPrevious } from "../../../src/transform/compare";
import { fillGaps } from "../../../src/transform/fill";
import { shapeReportMetrics } from "../../../src/transform/metrics";
import { rebucket } from "../../../src/transform/rebucket";

const META: ReportMeta = {
  granularity: "hourly",
  dimensions: ["campaign", "date"],
  metrics: ["clicks"],
  total: 0,
  page: 1,
  limit: 1000,
  has_more: false,
};

function stream(pages: ReportRow[][], meta: Partial<ReportMeta> = {}): ReportStream {
  async function* all(): AsyncGenerator<RowPage> {
    for (const rows of pages) yield { rows };
  }
  return { meta: { ...META, ...meta }, totalKnown: true, pages: all() };
}

const row = (id: number, date: number | string, clicks: number): ReportRow => ({
  dimensions: { campaign_id: id, name: `c${id}`, date },
  metrics: { clicks },
});

async function rows(report: ReportStream): Promise<ReportRow[]> {
  const out: ReportRow[] = [];
  for await (const page of report.pages) out.push(...page.rows);
  return out;
}

const h = (iso: string) => Date.parse(iso) / 1000;
const berlin = TimeZone.open("Europe/Berlin");

describe("rebucket", () => {
  it("sums one local day across a page boundary and across entities in order", async () => {
    const report = rebucket(
      stream([
        [row(1, h("2026-03-28T22:00:00Z"), 1), row(1, h("2026-03-28T23:00:00Z"), 2)],
        [
          row(1, h("2026-03-29T21:00:00Z"), 3),
          row(1, h("2026-03-29T22:00:00Z"), 4),
          row(2, h("2026-03-29T00:00:00Z"), 5),
        ],
      ]),
      berlin,
      "day",
    );
    expect(report.meta).toMatchObject({ tz: "Europe/Berlin", granularity: "daily" });
    expect(await rows(report)).toEqual([
      row(1, h("2026-03-27T23:00:00Z"), 1),
      row(1, h("2026-03-28T23:00:00Z"), 5),
      row(1, h("2026-03-29T22:00:00Z"), 4),
      row(2, h("2026-03-28T23:00:00Z"), 5),
    ]);
  });

  it("refuses rows out of entity-then-date order instead of writing a bucket twice", async () => {
    const backwards = rebucket(
      stream([[row(1, h("2026-03-29T10:00:00Z"), 1), row(1, h("2026-03-27T10:00:00Z"), 1)]]),
      berlin,
      "day",
    );
    await expect(rows(backwards)).rejects.toThrow(/not in entity-then-date order/);
    const entities = rebucket(stream([[row(2, 0, 1), row(1, 3600, 1)]]), berlin, "day");
    await expect(rows(entities)).rejects.toMatchObject({ exitCode: 5 });
  });

  it("refuses daily buckets sent for hourly ones (they cannot be cut into local days)", () => {
    expect(() => rebucket(stream([[row(1, 0, 1)]], { granularity: "daily" }), berlin, "day")).toThrow(
      /answered "daily" buckets when asked for hourly ones/,
    );
    expect(() => rebucket(stream([[row(1, 0, 1)]], { granularity: "stündlich" }), berlin, "day")).not.toThrow();
  });

  it("refuses a date that is not epoch seconds", async () => {
    await expect(rows(rebucket(stream([[row(1, "2026-03-29", 1)]]), berlin, "day"))).rejects.toThrow(
      /not epoch seconds/,
    );
  });
});

describe("compare", () => {
  const periods = {
    zone: TimeZone.UTC,
    currentFrom: h("2026-03-08T00:00:00Z"),
    previousFrom: h("2026-03-01T00:00:00Z"),
    mode: "previous",
    currentRange: { from: "2026-03-08T00:00:00Z", to: "2026-03-14T23:59:59Z" },
    previousRange: { from: "2026-03-01T00:00:00Z", to: "2026-03-07T23:59:59Z" },
  };
  const daily = { granularity: "daily" };

  it("pairs by entity and position, keeping rows of one side with the other empty", async () => {
    const current = stream([[row(1, h("2026-03-08T00:00:00Z"), 10), row(3, h("2026-03-09T00:00:00Z"), 7)]], daily);
    const previous = stream([[row(1, h("2026-03-01T00:00:00Z"), 5), row(2, h("2026-03-03T00:00:00Z"), 4)]], daily);
    const out = await rows(
      shapeReportMetrics(compareWithPrevious(current, previous, periods), { listed: ["clicks"], compare: true }),
    );
    expect(out.map((r) => [r.dimensions.campaign_id, r.dimensions.date, r.metrics])).toEqual([
      [1, h("2026-03-08T00:00:00Z"), { clicks: 10, clicks_prev: 5, clicks_change: 1 }],
      [2, h("2026-03-10T00:00:00Z"), { clicks: null, clicks_prev: 4, clicks_change: null }],
      [3, h("2026-03-09T00:00:00Z"), { clicks: 7, clicks_prev: null, clicks_change: null }],
    ]);
  });

  it("refuses an earlier period whose rows are out of order", async () => {
    const current = stream([[row(1, h("2026-03-08T00:00:00Z"), 1)]], daily);
    const previous = stream([[row(2, h("2026-03-01T00:00:00Z"), 1), row(1, h("2026-03-01T00:00:00Z"), 1)]], daily);
    await expect(rows(compareWithPrevious(current, previous, periods))).rejects.toThrow(/not in entity-then-date/);
  });
});

describe("fillGaps", () => {
  const d = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 1000;
  const range = (entityKey: string | undefined) => ({
    fromSec: d("2026-10-01"),
    toSec: d("2026-10-04") - 1,
    clock: utcBuckets("day"),
    entityKey,
  });

  it("refuses rows that are not in entity-then-date order (exit 5), never zeros over a day that has data", async () => {
    const byDateFirst = stream([[row(1, d("2026-10-01"), 1), row(2, d("2026-10-01"), 2), row(1, d("2026-10-02"), 3)]], {
      granularity: "daily",
    });
    await expect(rows(fillGaps(byDateFirst, range("campaign_id")))).rejects.toThrow(UnavailableError);
    const datesBack = stream([[row(1, d("2026-10-02"), 1), row(1, d("2026-10-01"), 2)]], { granularity: "daily" });
    await expect(rows(fillGaps(datesBack, range("campaign_id")))).rejects.toThrow(/not in entity-then-date order/);
  });

  it("refuses a date that is not epoch seconds (exit 5), never zeros beside the rows of those days", async () => {
    const isoDates = stream([[row(1, "2026-10-01", 1), row(1, "2026-10-02", 2)]], { granularity: "daily" });
    await expect(rows(fillGaps(isoDates, range("campaign_id")))).rejects.toThrow(/not epoch seconds/);
  });

  it("fills rows in order as before", async () => {
    const filled = await rows(
      fillGaps(
        stream([[row(1, d("2026-10-02"), 1), row(2, d("2026-10-01"), 2)]], { granularity: "daily" }),
        range("campaign_id"),
      ),
    );
    expect(filled.map((r) => [r.dimensions.campaign_id, r.dimensions.date, r.metrics.clicks])).toEqual([
      [1, d("2026-10-01"), 0],
      [1, d("2026-10-02"), 1],
      [1, d("2026-10-03"), 0],
      [2, d("2026-10-01"), 2],
      [2, d("2026-10-02"), 0],
      [2, d("2026-10-03"), 0],
    ]);
  });
});
