/**
 * A page of an hourly entity report at its facts' level streams from the indexes in order: no GROUP BY
 * and no sort (a temp B-tree), so its cost is the page's rows, not the entities it spans.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseReportQuery } from "../../src/contract/query";
import { entityPageSql } from "../../src/server/sql/report-seek-sql";
import { openForWriting } from "../../src/server/sqlite/open";
import { runInProcess } from "../helpers/run-cli-in-process";
import { tempDir } from "../helpers/temp";

async function planOf(params: Record<string, string>): Promise<string> {
  const db = join(tempDir(), "plan.db");
  expect((await runInProcess(["serve", "init", "--db", db])).code).toBe(0);
  const parsed = parseReportQuery(new URLSearchParams({ metrics: "views,spending", limit: "1000", ...params }));
  if (!parsed.ok) throw new Error(parsed.error.message);
  const plan = entityPageSql(parsed.query, 1, { from: 1, to: 9, skip: 0 }, 1000);
  if (!plan) throw new Error("no page statement");
  const conn = openForWriting(db, { create: false });
  try {
    const rows = conn.prepare(`EXPLAIN QUERY PLAN ${plan.sql}`).all(plan.params) as Array<{ detail: string }>;
    return rows.map((r) => r.detail).join("\n");
  } finally {
    conn.close();
  }
}

describe("the page statement", () => {
  for (const entity of ["campaign", "ad"]) {
    it(`streams an hourly ${entity} page from the indexes, unsorted and ungrouped`, async () => {
      const plan = await planOf({
        from: "2026-10-01",
        to: "2026-10-20T23:59:59Z",
        dimensions: `${entity},date`,
        granularity: "hour",
      });
      expect(plan).not.toMatch(/TEMP B-TREE/);
    });
  }

  it("still groups a daily page", async () => {
    const plan = await planOf({ from: "2026-10-01", to: "2026-10-20", dimensions: "ad,date", granularity: "day" });
    expect(plan).toMatch(/TEMP B-TREE FOR GROUP BY/);
  });
});
