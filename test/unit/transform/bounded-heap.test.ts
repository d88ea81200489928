import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BoundedHeap } from "../../../src/transform/bounded-heap";

type Item = { value: number; seq: number };
const before = (a: Item, b: Item) => a.value > b.value || (a.value === b.value && a.seq < b.seq);

describe("BoundedHeap", () => {
  it("keeps the N best, best first, and never holds more than N", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -50, max: 50 }), { maxLength: 300 }),
        fc.integer({ min: 1, max: 40 }),
        (values, n) => {
          const heap = new BoundedHeap<Item>(n, before);
          values.forEach((value, seq) => {
            heap.push({ value, seq });
            expect(heap.size).toBeLessThanOrEqual(n);
          });
          const expected = values
            .map((value, seq) => ({ value, seq }))
            .sort((a, b) => b.value - a.value || a.seq - b.seq)
            .slice(0, n);
          expect(heap.drain()).toEqual(expected);
          expect(heap.size).toBe(0);
        },
      ),
    );
  });

  it("holds 10 items over a million pushes", () => {
    const heap = new BoundedHeap<Item>(10, before);
    let largest = 0;
    for (let seq = 0; seq < 1_000_000; seq += 1) {
      heap.push({ value: (seq * 7919) % 1_000_003, seq });
      largest = Math.max(largest, heap.size);
    }
    expect(largest).toBe(10);
    expect(heap.drain().map((item) => item.value)).toEqual([
      1_000_002, 1_000_001, 1_000_000, 999_999, 999_998, 999_997, 999_996, 999_995, 999_994, 999_993,
    ]);
  });
});
