/**
 * The rows `serve` keeps for paging (reports without an entity, rows read ahead) are held as one UTF-8
 * buffer a report with the end of each row, outside V8's heap, where the heap's own growth above what is
 * alive does not multiply them; a page of them is a slice of that buffer, the rows joined by commas.
 */
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { parseReportQuery } from "../../src/contract";
import { loadNdjsonInto, openOperatorStore } from "../../src/server";
import { HeldRows } from "../../src/server/report/held-rows";
import { openServeStore } from "../../src/server/store/open";
import { demoNdjson } from "../helpers/serve";
import { tempDir } from "../helpers/temp";

describe("rows held for paging", () => {
  const rows = ['{"a":1}', '{"name":"Zoë, \\"quoted\\""}', "{}", '{"name":"日本"}', '{"b":22}'];

  it("gives any range of rows joined by commas, as UTF-8", () => {
    const held = HeldRows.of(rows);
    expect(held.length).toBe(rows.length);
    for (let from = 0; from <= rows.length; from += 1) {
      for (let to = from; to <= rows.length + 2; to += 1) {
        expect(held.slice(from, to).toString("utf8")).toBe(rows.slice(from, to).join(","));
      }
    }
    expect(HeldRows.of([]).slice(0, 10).byteLength).toBe(0);
  });

  it("counts the bytes it holds, and a page of it copies none", () => {
    const held = HeldRows.of(rows);
    const bytes = Buffer.byteLength(rows.join(","));
    expect(held.byteSize).toBeGreaterThanOrEqual(bytes + 4 * rows.length);
    const page = held.slice(1, 3);
    const whole = held.slice(0, rows.length);
    expect(page.buffer).toBe(whole.buffer);
  });

  it("keeps what the caches count outside V8's heap", { timeout: 60_000 }, async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const dir = tempDir();
    const db = join(dir, "held.db");
    const operator = await openOperatorStore(db, { create: true });
    try {
      await loadNdjsonInto(operator, demoNdjson(dir).path);
    } finally {
      await operator.close();
    }
    const store = await openServeStore(db, { cacheBytes: 64 * 1024 * 1024, cacheRows: 2_000_000, poolSize: 1 });
    try {
      gc();
      const heapBefore = process.memoryUsage().heapUsed;
      const start = Date.UTC(2026, 8, 22) / 1000;
      // 150 distinct hourly reports by date of 30 days each: about 720 rows, 50 KB, apiece.
      for (let n = 0; n < 150; n += 1) {
        const from = new Date((start + n * 3600) * 1000).toISOString();
        const to = new Date((start + n * 3600 + 30 * 86400 - 1) * 1000).toISOString();
        const parsed = parseReportQuery(
          new URLSearchParams({ from, to, metrics: "views,clicks,spending", dimensions: "date", granularity: "hour" }),
        );
        if (!parsed.ok) throw new Error(parsed.error.message);
        const page = await store.reportPage(parsed.query, 1, 0, 10);
        expect(page.total).toBeGreaterThan(500);
      }
      gc();
      const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
      const counted = store.cacheUsage().bytes;
      expect(store.cacheUsage().reports).toBe(150);
      expect(counted).toBeGreaterThan(5 * 1024 * 1024);
      // What stays on the heap is the reports' keys and objects, a few hundred bytes each.
      expect(heapGrowth).toBeLessThan(counted / 10);
    } finally {
      await store.close();
    }
  });
});
