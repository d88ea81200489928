/**
 * The series of a picture: entities ranked by the first metric over the range, the top ones drawn and the
 * rest summed as "other", a ratio in "other" computed from the summed counters. Expected values are sums
 * written out here from the rows given.
 */
import { describe, expect, it } from "vitest";
import type { ReportRow } from "../../../src/contract";
import { PictureCollector } from "../../../src/format/picture/collect";

function columnsFor(dimensionKeys: string[], metrics: string[]) {
  const order = [
    ...dimensionKeys.map((name) => ({ name, metric: false })),
    ...metrics.map((name) => ({ name, metric: true })),
  ];
  return { dimensionKeys, metrics, order };
}

const columns = columnsFor(["campaign_id", "name", "date"], ["ctr", "clicks"]);

function row(id: number, date: number, views: number, clicks: number): ReportRow {
  return {
    dimensions: { campaign_id: id, name: `c${id}`, date },
    metrics: { ctr: views === 0 ? (null as unknown as number) : clicks / views, clicks, views },
  };
}

describe("PictureCollector", () => {
  it("ranks by the first metric over the range and sums the rest as other", () => {
    const collector = new PictureCollector(columns, { top: 2, other: true });
    // ctr over the range: c1 0.5, c2 0.4, c3 0.1, c4 no views on day 2.
    const rows = [
      row(1, 86_400, 10, 5),
      row(1, 172_800, 10, 5),
      row(2, 86_400, 50, 20),
      row(2, 172_800, 50, 20),
      row(3, 86_400, 100, 10),
      row(3, 172_800, 100, 10),
      row(4, 86_400, 300, 3),
      row(4, 172_800, 0, 0),
    ];
    for (const r of rows) collector.add(r, String(r.dimensions.date));
    const picture = collector.picture();
    expect(picture.dates).toEqual(["86400", "172800"]);
    expect(picture.series.map((s) => s.label)).toEqual(["c1 (1)", "c2 (2)", "other (2)"]);
    const other = picture.series[2];
    expect(other?.values.clicks).toEqual([13, 10]);
    // Day 1: (10 + 3) / (100 + 300); day 2: 10 / 100. Not the mean of the two ratios.
    expect(other?.values.ctr?.[0]).toBeCloseTo(13 / 400, 12);
    expect(other?.values.ctr?.[1]).toBeCloseTo(0.1, 12);
    expect(picture.entities).toBe(4);
  });

  it("no date: one value per series over the range; a missing day is null", () => {
    const collector = new PictureCollector(columns, { top: 5, other: false });
    collector.add(row(1, 86_400, 10, 5), "d1");
    collector.add(row(2, 172_800, 10, 1), "d2");
    const dated = collector.picture();
    expect(dated.series[0]?.values.clicks).toEqual([5, null]);
    const flat = new PictureCollector(columnsFor(["campaign_id", "name"], ["clicks"]), { top: 1, other: true });
    flat.add(row(1, 0, 10, 5), undefined);
    flat.add(row(2, 0, 10, 7), undefined);
    flat.add(row(1, 0, 10, 5), undefined);
    const picture = flat.picture();
    expect(picture.dates).toBeUndefined();
    expect(picture.series.map((s) => [s.label, s.values.clicks])).toEqual([
      ["c1 (1)", [10]],
      ["other (1)", [7]],
    ]);
  });
});
