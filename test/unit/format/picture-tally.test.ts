/**
 * A chart point's value from counters summed over what it covers: ratios from the sums (never an average
 * of ratios), no value for a zero denominator, `_prev` and `_change` the same way. The expected values are
 * worked out here by hand from the counters.
 */
import { describe, expect, it } from "vitest";
import { addMetrics, addTally, emptyTally, metricValue } from "../../../src/format/picture/tally";

function tallyOf(...rows: Array<Record<string, number | null>>) {
  const tally = emptyTally();
  for (const row of rows) addMetrics(tally, row);
  return tally;
}

describe("metricValue", () => {
  it("sums counters and computes ratios from the sums", () => {
    const other = tallyOf(
      { views: 100, clicks: 50, spending: 10, conversions: 0, ctr: 0.5 },
      { views: 900, clicks: 0, spending: 0, conversions: 0, ctr: 0 },
    );
    expect(metricValue("clicks", other)).toBe(50);
    // (50 + 0) / (100 + 900), not the mean of 0.5 and 0.
    expect(metricValue("ctr", other)).toBeCloseTo(0.05, 12);
    expect(metricValue("cpm", other)).toBeCloseTo((10 / 1000) * 1000, 12);
    expect(metricValue("cpc", other)).toBeCloseTo(10 / 50, 12);
    expect(metricValue("cpa", other)).toBeUndefined();
    expect(metricValue("cvr", other)).toBe(0);
  });

  it("a ratio without its counters: one row's own value, several rows' none", () => {
    expect(metricValue("ctr", tallyOf({ ctr: 0.25 }))).toBe(0.25);
    expect(metricValue("ctr", tallyOf({ ctr: 0.25 }, { ctr: 0.75 }))).toBeUndefined();
  });

  it("null adds nothing; a counter nobody had is no value", () => {
    const tally = tallyOf({ clicks: null, views: 10 }, { clicks: 3, views: null });
    expect(metricValue("clicks", tally)).toBe(3);
    expect(metricValue("views", tally)).toBe(10);
    expect(metricValue("conversions", tally)).toBeUndefined();
  });

  it("_prev from the previous period's counters, _change between the two", () => {
    const a = tallyOf({ clicks: 10, views: 100, clicks_prev: 5, views_prev: 100 });
    const b = tallyOf({ clicks: 30, views: 100, clicks_prev: 15, views_prev: 300 });
    const both = emptyTally();
    addTally(both, a);
    addTally(both, b);
    expect(metricValue("clicks_prev", both)).toBe(20);
    expect(metricValue("clicks_change", both)).toBeCloseTo((40 - 20) / 20, 12);
    expect(metricValue("ctr_prev", both)).toBeCloseTo(20 / 400, 12);
    expect(metricValue("ctr_change", both)).toBeCloseTo((40 / 200 - 20 / 400) / (20 / 400), 12);
    expect(metricValue("views_change", tallyOf({ views: 5, views_prev: 0 }))).toBeUndefined();
  });
});

describe("sums of money", () => {
  it("keep the 6 decimals spending has, without binary drift", () => {
    expect(metricValue("spending", tallyOf({ spending: 0.1 }, { spending: 0.2 }))).toBe(0.3);
  });
});
