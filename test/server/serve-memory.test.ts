/**
 * What `serve` holds outside `--cache-mb` is bounded: SQLite's page cache (and so the memory a sort may use
 * before it spills), and the report statements kept prepared, whatever shapes of report are asked.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseReportQuery } from "../../src/contract";
import { loadNdjsonInto, openOperatorStore } from "../../src/server";
import { LiveConnection, PREPARED_REPORT_STATEMENTS } from "../../src/server/sqlite/live-connection";
import { openForReading, SERVE_PAGE_CACHE_KB } from "../../src/server/sqlite/open";
import { computeReport } from "../../src/server/sqlite/report-reader";
import { demoNdjson } from "../helpers/serve";
import { tempDir } from "../helpers/temp";

async function demoDb(): Promise<string> {
  const dir = tempDir();
  const db = join(dir, "memory.db");
  const store = await openOperatorStore(db, { create: true });
  try {
    await loadNdjsonInto(store, demoNdjson(dir).path);
  } finally {
    await store.close();
  }
  return db;
}

describe("serve's memory outside --cache-mb", () => {
  it("keeps SQLite's page cache at a megabyte, not the build's 16 MB", async () => {
    const db = openForReading(await demoDb());
    try {
      expect(db.pragma("cache_size", { simple: true })).toBe(-SERVE_PAGE_CACHE_KB);
      expect(SERVE_PAGE_CACHE_KB).toBeLessThanOrEqual(1024);
    } finally {
      db.close();
    }
  });

  it("keeps a bounded number of report statements prepared, however many shapes are asked", async () => {
    const live = new LiveConnection(await demoDb(), (path) => openForReading(path), {
      nowMs: () => 0,
      forget: () => undefined,
    });
    const metrics = ["views", "clicks", "spending", "conversions"];
    // Every ordered choice of metrics is a statement of its own: 64 of them, for each of three shapes.
    const orders: string[][] = [[]];
    for (let n = 0; n < metrics.length; n += 1) {
      for (const order of [...orders]) for (const m of metrics) if (!order.includes(m)) orders.push([...order, m]);
    }
    try {
      for (const dims of ["campaign,date", "ad", "date"]) {
        for (const order of orders.filter((o) => o.length > 0)) {
          const parsed = parseReportQuery(
            new URLSearchParams({ from: "2026-10-01", to: "2026-10-31", metrics: order.join(","), dimensions: dims }),
          );
          if (!parsed.ok) throw new Error(parsed.error.message);
          live.snapshot((c) => computeReport(c, parsed.query, 1));
        }
      }
      const kept = live.use((c) => c.reportStatements.size);
      expect(kept).toBeGreaterThan(0);
      expect(kept).toBeLessThanOrEqual(PREPARED_REPORT_STATEMENTS);
      expect(PREPARED_REPORT_STATEMENTS).toBeLessThanOrEqual(64);
    } finally {
      live.close();
    }
  });
});
