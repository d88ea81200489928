/**
 * PostgreSQL roles that may not create tables nor alter them (a real cluster): tables made for them
 * beforehand are filled, adreport_loads included; without adreport_loads or `run_id` the rows are still
 * written and the run says what it could not record; a metric column it would have to add is refused
 * before anything (exit 2), naming the column.
 */
import pg from "pg";
import { describe, expect, it } from "vitest";
import type { ReportRequest } from "../../../../src/contract";
import { AdreportError } from "../../../../src/core/errors";
import { postgresTable } from "../../../../src/targets/postgres/table";
import { openTableTarget } from "../../../../src/targets/table/target";
import { queryPostgres, usePostgres } from "../../../helpers/postgres";
import { tempDir } from "../../../helpers/temp";

const postgres = usePostgres();
const START = Date.UTC(2026, 10, 1) / 1000;
const REQUEST: ReportRequest = {
  from: "2026-11-01",
  to: "2026-11-02",
  metrics: ["views", "spending", "clicks"],
  dimensions: ["campaign", "date"],
};
const TABLE = `CREATE TABLE ads (campaign_id BIGINT, name TEXT, "date" DATE, views BIGINT, spending NUMERIC(20,6),
  clicks BIGINT, profile TEXT NOT NULL, query_scope TEXT NOT NULL, exported_at TIMESTAMPTZ NOT NULL, run_id TEXT)`;
/** As docs/incremental.md gives it. */
const LOADS = `CREATE TABLE adreport_loads (run_id TEXT NOT NULL, job TEXT NOT NULL, target_table TEXT NOT NULL,
  profile TEXT NOT NULL, query_scope TEXT NOT NULL, day DATE NOT NULL, row_count BIGINT NOT NULL,
  sums JSONB NOT NULL, requests INTEGER NOT NULL, loaded_at TIMESTAMPTZ NOT NULL)`;

async function prepared(context: { skip(note?: string): never }, ddl: string[]) {
  const url = await postgres.database(context);
  const role = `filler_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE ROLE ${role} LOGIN`);
    for (const statement of ddl) await admin.query(statement);
    const tables = ddl.map((d) => /CREATE TABLE (\w+)/.exec(d)?.[1]).filter((t) => t !== undefined);
    await admin.query(`GRANT SELECT, INSERT, DELETE ON ${tables.join(", ")} TO ${role}`);
  } finally {
    await admin.end();
  }
  const query = (text: string) => queryPostgres(url, text);
  return { url: url.replace("postgres://adreport@", `postgres://${role}@`), query };
}

async function runAs(url: string) {
  const notes: string[] = [];
  const target = await openTableTarget(
    postgresTable({ url, table: "ads", shown: "postgres://test", connectTimeoutMs: 10_000 }),
    {
      profile: "",
      request: REQUEST,
      cwd: tempDir(),
      now: new Date("2026-11-20T06:00:00Z"),
      sqliteAddon: undefined,
      runId: "run-1",
      job: "job-1",
      note: (text) => notes.push(text),
    },
  );
  try {
    const rows = [0, 1].map((d) => ({
      dimensions: { campaign_id: 7, name: "Spring", date: START + d * 86_400 },
      metrics: { views: 10 + d, spending: 1.5, clicks: 2 },
    }));
    const meta = { granularity: "daily", dimensions: ["campaign", "date"], metrics: [...REQUEST.metrics] };
    const report = {
      meta: { ...meta, total: 2, page: 1, limit: 100, has_more: false },
      totalKnown: true,
      pages: (async function* () {
        yield { rows };
      })(),
    };
    const span = { from: "2026-11-01", to: "2026-11-02", everyDay: ["2026-11-01", "2026-11-02"] };
    const records = await target.stage(report, span);
    const loads = [...records].map(([day, r]) => ({ day, rows: r.rows, sums: r.sums, requests: 1 }));
    await target.commit(new Set(records.keys()), loads);
  } finally {
    await target.close();
  }
  return notes;
}

describe("a PostgreSQL role that may not create or alter tables", () => {
  it("fills the table and adreport_loads made for it", async (context) => {
    const { url, query } = await prepared(context, [TABLE, LOADS]);
    expect(await runAs(url)).toEqual([]);
    expect(await query("SELECT DISTINCT run_id FROM ads")).toEqual([{ run_id: "run-1" }]);
    const loads = await query("SELECT to_char(day, 'YYYY-MM-DD') AS day, sums FROM adreport_loads ORDER BY day");
    expect(loads).toEqual([
      { day: "2026-11-01", sums: { views: 10, spending: 1_500_000, clicks: 2 } },
      { day: "2026-11-02", sums: { views: 11, spending: 1_500_000, clicks: 2 } },
    ]);
  });

  it("without adreport_loads: the rows are written, and the run says its days were not recorded there", async (context) => {
    const { url, query } = await prepared(context, [TABLE]);
    const notes = await runAs(url);
    expect(notes).toEqual([
      expect.stringMatching(/there is no table adreport_loads beside it and this role may not create it/),
    ]);
    expect(await query("SELECT count(*)::int AS n FROM ads")).toEqual([{ n: 2 }]);
    expect(await query("SELECT to_regclass('adreport_loads') AS t")).toEqual([{ t: null }]);
  });

  it("a table without run_id: written without it, and said", async (context) => {
    const { url, query } = await prepared(context, [TABLE.replace(", run_id TEXT", ""), LOADS]);
    const notes = await runAs(url);
    expect(notes).toEqual([
      expect.stringMatching(/^the table ads in postgres:\/\/test has no column run_id and only its owner may add it/),
    ]);
    expect(await query("SELECT count(*)::int AS n FROM ads")).toEqual([{ n: 2 }]);
    expect(await query("SELECT count(*)::int AS n FROM adreport_loads")).toEqual([{ n: 2 }]);
  });

  it("a metric column the table lacks: refused, exit 2, naming it, before anything", async (context) => {
    const { url, query } = await prepared(context, [TABLE.replace("clicks BIGINT,", ""), LOADS]);
    const refused = await runAs(url).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AdreportError);
    expect((refused as AdreportError).exitCode).toBe(2);
    expect((refused as Error).message).toMatch(
      /^the table ads in postgres:\/\/test has no column clicks for the metrics --metrics lists, and only the table's owner may add it$/,
    );
    expect(await query("SELECT count(*)::int AS n FROM ads")).toEqual([{ n: 0 }]);
  });
});
