/** The page map of an entity report: where every page starts, from rows counted per entity. */
import { describe, expect, it } from "vitest";
import { PageMap } from "../../src/server/report/page-map";

describe("PageMap", () => {
  const map = new PageMap([
    [3, 2],
    [5, 0],
    [8, 4],
    [9, 1],
  ]);

  it("totals the rows and leaves out entities without any", () => {
    expect(map.total).toBe(7);
    expect(map.entities).toBe(3);
  });

  it("names the entities a page spans and the rows to skip in the first", () => {
    expect(map.span(0, 2)).toEqual({ from: 3, to: 3, skip: 0 });
    expect(map.span(1, 2)).toEqual({ from: 3, to: 8, skip: 1 });
    expect(map.span(2, 4)).toEqual({ from: 8, to: 8, skip: 0 });
    expect(map.span(3, 100)).toEqual({ from: 8, to: 9, skip: 1 });
    expect(map.span(6, 1)).toEqual({ from: 9, to: 9, skip: 0 });
  });

  it("has no span past the end, nor for an empty report", () => {
    expect(map.span(7, 10)).toBeUndefined();
    expect(new PageMap([]).span(0, 10)).toBeUndefined();
    expect(new PageMap([]).total).toBe(0);
  });

  it("costs two numbers an entity, whatever the rows", () => {
    const small = new PageMap([[1, 1]]);
    const large = new PageMap([[1, 1_000_000]]);
    expect(large.bytes).toBe(small.bytes);
    expect(new PageMap(Array.from({ length: 1001 }, (_, i) => [i, 1] as [number, number])).bytes - small.bytes).toBe(
      1000 * 16,
    );
  });

  it("refuses entities out of order (pages would be placed wrong)", () => {
    expect(
      () =>
        new PageMap([
          [2, 1],
          [1, 1],
        ]),
    ).toThrow("ascend");
  });
});
