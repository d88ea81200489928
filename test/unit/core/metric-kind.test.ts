import { describe, expect, it } from "vitest";
import { metricKind } from "../../../src/core/metric-kind";
import { metricText } from "../../../src/format/metric-text";

describe("metricKind", () => {
  it("knows money, shares, counts and changes, a compared period's column as its metric", () => {
    const kinds = Object.fromEntries(
      [
        "views",
        "spending",
        "clicks",
        "conversions",
        "ctr",
        "cpc",
        "cpm",
        "cvr",
        "cpa",
        "spending_prev",
        "ctr_prev",
      ].map((m) => [m, metricKind(m)]),
    );
    expect(kinds).toEqual({
      views: "count",
      spending: "money",
      clicks: "count",
      conversions: "count",
      ctr: "percent",
      cpc: "money",
      cpm: "money",
      cvr: "percent",
      cpa: "money",
      spending_prev: "money",
      ctr_prev: "percent",
    });
    expect(metricKind("spending_change")).toBe("change");
    expect(metricKind("views_change")).toBe("change");
  });

  it("is what the table writes", () => {
    expect(metricText("spending", 1234.5)).toBe("1,234.50");
    expect(metricText("cpc_prev", 0.5)).toBe("0.50");
    expect(metricText("ctr", 0.01234)).toBe("1.23%");
    expect(metricText("clicks_change", 0.1)).toBe("+10.00%");
    expect(metricText("views", 1234567)).toBe("1,234,567");
  });
});
