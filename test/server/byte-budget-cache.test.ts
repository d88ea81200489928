/** The bounded cache under the report and page caches: what an entry costs, and that every leaving is seen. */
import { describe, expect, it } from "vitest";
import { ByteBudgetCache, ENTRY_OVERHEAD_BYTES, stringBytes } from "../../src/server/report/cache";

describe("ByteBudgetCache", () => {
  it("charges the key, the value and a fixed overhead for every entry, empty ones included", () => {
    const cache = new ByteBudgetCache<string>(10_000, stringBytes);
    cache.set("k".repeat(100), "");
    expect(cache.usedBytes).toBe(100 + ENTRY_OVERHEAD_BYTES);
    for (let i = 0; i < 1000; i += 1) cache.set(`key-${i}`, "");
    expect(cache.usedBytes).toBeLessThanOrEqual(10_000);
    expect(cache.size).toBeLessThan(10_000 / ENTRY_OVERHEAD_BYTES);
  });

  it("counts characters outside Latin-1 as two bytes, as V8 stores them", () => {
    expect(stringBytes("abc")).toBe(3);
    expect(stringBytes("é")).toBe(1);
    expect(stringBytes("日本")).toBe(4);
  });

  it("reports every value that leaves: evicted, popped or cleared", () => {
    const gone: string[] = [];
    const cache = new ByteBudgetCache<string>(2 * (ENTRY_OVERHEAD_BYTES + 501), stringBytes, (v) => gone.push(v));
    cache.set("a", "a".repeat(500));
    cache.set("b", "b".repeat(500));
    cache.set("c", "c".repeat(500));
    expect(gone.map((v) => v[0])).toEqual(["a"]);
    expect(cache.evictOldest()).toBe(true);
    expect(gone.map((v) => v[0])).toEqual(["a", "b"]);
    cache.clear();
    expect(gone.map((v) => v[0])).toEqual(["a", "b", "c"]);
    expect(cache.usedBytes).toBe(0);
  });

  it("refuses a value larger than the whole budget, and keeps nothing with a budget of 0", () => {
    expect(new ByteBudgetCache<string>(1000, stringBytes).set("k", "x".repeat(2000))).toBe(false);
    const none = new ByteBudgetCache<string>(0, stringBytes);
    expect(none.set("k", "v")).toBe(false);
    expect(none.get("k")).toBeUndefined();
  });
});
