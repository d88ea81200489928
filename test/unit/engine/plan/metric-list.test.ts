import { describe, expect, it } from "vitest";
import { readMetricList } from "../../../../src/engine/plan/metric-list";

describe("readMetricList", () => {
  it("fetches the listed counters, then those the ratios need, and outputs what was listed", () => {
    expect(readMetricList("cpa, clicks ,ctr", ["campaign"])).toEqual({
      listed: ["cpa", "clicks", "ctr"],
      fetched: ["clicks", "spending", "conversions", "views"],
    });
    expect(readMetricList(undefined, ["keyword"])).toEqual({
      listed: ["views", "spending", "clicks"],
      fetched: ["views", "spending", "clicks"],
    });
  });

  it("refuses names listed twice, empty names and ratios over conversions for keywords", () => {
    expect(() => readMetricList("ctr,ctr", [])).toThrow("--metrics: ctr listed twice");
    expect(() => readMetricList("ctr,", [])).toThrow('--metrics: an empty name in "ctr,"');
    expect(() => readMetricList("cvr", ["keyword"])).toThrow("keyword reports have no conversions");
    expect(readMetricList("cpm", ["keyword"]).fetched).toEqual(["spending", "views"]);
  });
});
