/** Helpers beside the field catalogue: rounding metric sums, reading rows page by page. */
import { describe, expect, it } from "vitest";
import { type RowPage, roundToMicros, rowsOf } from "../../../src/contract";

describe("roundToMicros", () => {
  it("removes binary drift past 6 decimals", () => {
    expect(roundToMicros(0.1 + 0.2)).toBe(0.3);
    expect(roundToMicros(1.0000004)).toBe(1);
    expect(roundToMicros(2.1234565)).toBe(2.123457);
  });

  it("returns whole numbers as they are, even past 2^53 / 10^6", () => {
    expect(roundToMicros(12_345_678_901)).toBe(12_345_678_901);
    expect(roundToMicros(Number.MAX_SAFE_INTEGER)).toBe(Number.MAX_SAFE_INTEGER);
  });
});

describe("rowsOf", () => {
  it("yields the rows of every page in order", async () => {
    async function* pages(): AsyncGenerator<RowPage> {
      yield { rows: [{ dimensions: { a: 1 }, metrics: {} }] };
      yield { rows: [] };
      yield { rows: [{ dimensions: { a: 2 }, metrics: {} }] };
    }
    const seen: unknown[] = [];
    for await (const row of rowsOf(pages())) seen.push(row.dimensions.a);
    expect(seen).toEqual([1, 2]);
  });
});
