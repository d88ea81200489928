import { describe, expect, it } from "vitest";
import { metricFrom } from "../../../src/core/derived-metrics";
import { metricsAsSent } from "../../../src/transform/metrics";

describe("metricsAsSent", () => {
  const listed = { listed: ["clicks", "views"], compare: false };

  it("keeps the service's list when it is the listed counters in their order, some perhaps left out", () => {
    expect(metricsAsSent(["clicks", "views"], listed)).toBe(true);
    expect(metricsAsSent(["clicks"], listed)).toBe(true);
  });

  it("shapes a list in another order into the listed order, and one with a counter nobody listed", () => {
    expect(metricsAsSent(["views", "clicks"], listed)).toBe(false);
    expect(metricsAsSent(["clicks", "views", "spending"], listed)).toBe(false);
  });
});

describe("metricFrom", () => {
  const sums: Record<string, number> = { clicks: 30, views: 1000, clicks_prev: 20, views_prev: 1000, spending: 3 };
  const counter = (name: string) => sums[name];

  it("reads counters, computes ratios and their previous period from the counters, and changes from both", () => {
    expect(metricFrom("clicks", counter)).toBe(30);
    expect(metricFrom("ctr", counter)).toBeCloseTo(0.03);
    expect(metricFrom("ctr_prev", counter)).toBeCloseTo(0.02);
    expect(metricFrom("ctr_change", counter)).toBeCloseTo(0.5);
    expect(metricFrom("clicks_change", counter)).toBeCloseTo(0.5);
  });

  it("has no value for a zero or missing denominator", () => {
    expect(metricFrom("cpa", counter)).toBeUndefined();
    expect(metricFrom("cpc", (name) => (name === "clicks" ? 0 : sums[name]))).toBeUndefined();
  });
});
