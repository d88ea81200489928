/**
 * The checks `report` makes of its request's flags before anything of the export loads: the contract's own
 * words for each flag alone, in the order planRequest meets them, and nothing refused that the contract takes.
 */
import { describe, expect, it } from "vitest";
import { UsageError } from "../../../../src/core/errors";
import { checkRequestWords } from "../../../../src/engine/plan/request-words";

function refusal(words: Parameters<typeof checkRequestWords>[0]): string | undefined {
  try {
    checkRequestWords(words);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
}

describe("checkRequestWords", () => {
  it.each([
    [{ dimensions: "campaign,nope" }, '--dims: unknown name "nope"; use date, campaign, ad, keyword'],
    [{ dimensions: "campaign,,date" }, '--dims: empty item in "campaign,,date"'],
    [{ dimensions: "date, date" }, '--dims: "date" given twice'],
    [{ granularity: "fortnight" }, '--granularity: "fortnight" is not one of hour, day, week, month'],
    [
      { metrics: "views,bogus" },
      '--metrics: unknown name "bogus"; use views, spending, clicks, conversions, ctr, cpc, cpm, cvr, cpa',
    ],
    [{ campaign: "0" }, '--campaign: "0" is not a positive integer id'],
    [{ ad: "x" }, '--ad: "x" is not a positive integer id'],
  ])("%j: %s", (words, message) => {
    expect(refusal(words)).toBe(message);
  });

  it("takes what the contract takes: spaces around items, any case and the -ly words of a granularity", () => {
    for (const words of [
      { dimensions: " campaign , date ", granularity: " HOUR " },
      { granularity: "Weekly" },
      { metrics: "views, ctr", campaign: " 12 ", ad: "7" },
      {},
    ]) {
      expect(refusal(words)).toBeUndefined();
    }
  });

  it("refuses in planRequest's order: --metrics, --campaign, --ad, --dims, then --granularity", () => {
    const all = { metrics: "nope", campaign: "x", ad: "y", dimensions: "nope", granularity: "nope" };
    expect(refusal(all)).toMatch(/^--metrics:/);
    expect(refusal({ ...all, metrics: undefined })).toMatch(/^--campaign:/);
    expect(refusal({ ...all, metrics: undefined, campaign: undefined })).toMatch(/^--ad:/);
    expect(refusal({ dimensions: "nope", granularity: "nope" })).toMatch(/^--dims:/);
  });
});
