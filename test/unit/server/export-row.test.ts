import { describe, expect, it } from "vitest";
import { parseExportRow } from "../../../src/server/load-export/export-row";

const row = (dimensions: object, metrics: object = { views: 1 }, extra: object = {}) => ({
  dimensions,
  metrics,
  ...extra,
});
const campaign = { campaign_id: 1, name: "a", date: 1793491200 };
const refusal = (value: unknown) => {
  try {
    parseExportRow(value, 3);
  } catch (error) {
    return (error as Error).message;
  }
  return "accepted";
};

describe("an export row for serve load --from-export", () => {
  it("becomes the ad it loads as, with the metrics it carries", () => {
    expect(parseExportRow(row(campaign, { views: 2, spending: 1.5 }), 1)).toEqual({
      profile: undefined,
      entity: "campaign",
      campaignId: 1,
      adId: 1,
      name: "a",
      date: 1793491200,
      metrics: { views: 2, spending: 1.5 },
    });
    const ad = parseExportRow(row({ ad_id: 7, campaign_id: 1, name: "b", date: 0 }, {}, { profile: "acme" }), 1);
    expect(ad).toMatchObject({ entity: "ad", campaignId: 1, adId: 7, profile: "acme", metrics: {} });
  });

  it.each([
    ["a number", 5, "line 3: not a report row (an object with dimensions and metrics)"],
    ["no metrics", { dimensions: campaign }, "line 3: not a report row (an object with dimensions and metrics)"],
    ["a text metric", row(campaign, { views: "x" }), 'line 3: metrics.views is "x", not a number'],
    ["a keyword row", row({ ...campaign, keyword_id: 4 }), "line 3: a keyword row; keyword reports have no dates"],
    ["no date", row({ campaign_id: 1, name: "a" }), "line 3: no date; export with date among the dimensions"],
    ["a date off the hour", row({ ...campaign, date: 1793491260 }), "line 3: dimensions.date 1793491260 is not"],
    ["no entity", row({ date: 0 }), "line 3: no campaign or ad; export with one among the dimensions"],
    ["an id of 0", row({ ...campaign, campaign_id: 0 }), "line 3: campaign_id must be positive integers"],
    ["an ad without campaign", row({ ad_id: 2, name: "b", date: 0 }), "line 3: ad_id and campaign_id must be"],
    ["an empty name", row({ ...campaign, name: "" }), "line 3: dimensions.name must be a text of 1 to 1000"],
    ["a negative count", row(campaign, { clicks: -1 }), "line 3: metrics.clicks is -1, not a whole count >= 0"],
    ["a fractional count", row(campaign, { views: 1.5 }), "line 3: metrics.views is 1.5, not a whole count >= 0"],
    ["7 decimals", row(campaign, { spending: 0.1234567 }), "line 3: metrics.spending 0.1234567 has more than 6"],
    ["an empty profile", row(campaign, {}, { profile: "" }), "line 3: profile must be a text of 1 to 1000"],
  ])("refuses %s, saying so", (_what, value, message) => {
    expect(refusal(value)).toContain(message);
  });

  it("names the first fault in the order a reader fixes them: dates before names before metrics", () => {
    expect(refusal(row({ campaign_id: 0, name: "", date: 5 }, { views: -1 }))).toContain("dimensions.date 5");
    expect(refusal(row({ campaign_id: 1, name: "", date: 0 }, { views: -1 }))).toContain("dimensions.name");
  });
});
