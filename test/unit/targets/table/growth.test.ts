/**
 * Two runs into one PostgreSQL table (two accounts of one run) that both find a metric column missing:
 * the first adds it, the second waits for the first's commit (as for creating the table) instead of for
 * the table's lock, which gave up after 10 s while the first run went on; it then adds nothing, and says
 * nothing was added.
 */
import pg from "pg";
import { describe, expect, it } from "vitest";
import type { ReportRequest } from "../../../../src/contract";
import { postgresTable } from "../../../../src/targets/postgres/table";
import { openTableTarget, type TableAccess } from "../../../../src/targets/table/target";
import { usePostgres } from "../../../helpers/postgres";
import { tempDir } from "../../../helpers/temp";

const postgres = usePostgres();
const START = Date.UTC(2026, 10, 1) / 1000;
const SPAN = { from: "2026-11-01", to: "2026-11-01", everyDay: ["2026-11-01"] };

function requestOf(metrics: Array<"views" | "clicks" | "conversions">): ReportRequest {
  return { from: "2026-11-01", to: "2026-11-01", metrics, dimensions: ["campaign", "date"] };
}

function reportOf(metrics: readonly string[]) {
  const row = {
    dimensions: { campaign_id: 1, name: "Spring", date: START },
    metrics: Object.fromEntries(metrics.map((m) => [m, 5])),
  };
  return {
    meta: {
      granularity: "daily",
      dimensions: ["campaign", "date"],
      metrics: [...metrics],
      total: 1,
      page: 1,
      limit: 100,
      has_more: false,
    },
    totalKnown: true,
    pages: (async function* () {
      yield { rows: [row] };
    })(),
  };
}

async function open(choice: TableAccess, profile: string, request: ReportRequest, notes: string[]) {
  return await openTableTarget(choice, {
    profile,
    request,
    cwd: tempDir(),
    now: new Date("2026-11-20T06:00:00Z"),
    sqliteAddon: undefined,
    runId: `run-${profile}`,
    job: `job-${profile}`,
    note: (text) => notes.push(text),
  });
}

describe("PostgreSQL: two runs adding the same metric column", () => {
  it("the second waits for the first's commit, adds nothing and says nothing", async (context) => {
    const url = await postgres.database(context);
    const choice = postgresTable({ url, table: "ads", shown: "pg", connectTimeoutMs: 10_000 });
    const older = await open(choice, "a", requestOf(["views", "clicks"]), []);
    await older.stage(reportOf(["views", "clicks"]), SPAN);
    await older.commit(new Set(SPAN.everyDay));
    await older.close();

    const grown = requestOf(["views", "clicks", "conversions"]);
    const [notesA, notesB] = [[] as string[], [] as string[]];
    const a = await open(choice, "a", grown, notesA);
    const b = await open(choice, "b", grown, notesB);
    try {
      await a.stage(reportOf(grown.metrics), SPAN);
      const staged = b.stage(reportOf(grown.metrics), SPAN);
      await expect
        .poll(() => b.waiting(), { timeout: 5_000 })
        .toMatch(/^waited \d+\.\d s for another run adding columns to the table ads in pg$/);
      await a.commit(new Set(SPAN.everyDay));
      await staged;
      await b.commit(new Set(SPAN.everyDay));
    } finally {
      await a.close();
      await b.close();
    }
    expect(notesA).toEqual([expect.stringMatching(/^added the column conversions to the table ads in pg;/)]);
    expect(notesB).toEqual([]);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const rows = await client.query("SELECT profile, conversions::int FROM ads ORDER BY profile");
      expect(rows.rows).toEqual([
        { profile: "a", conversions: 5 },
        { profile: "b", conversions: 5 },
      ]);
    } finally {
      await client.end();
    }
  });
});
