/**
 * A table target's ledger, on a real SQLite file and a real PostgreSQL cluster: `run_id` on every row a
 * run writes, one adreport_loads row per day in the run's transaction (gone with a failed run), and the
 * reader's per-day sums equal to what the run recorded (hourly rows summed into their day, spending in
 * micros summed row by row).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import type { ReportMeta, ReportRequest, ReportRow } from "../../../../src/contract";
import type { DayRecord } from "../../../../src/state/day-record";
import type { DayLoad } from "../../../../src/targets/day-target";
import { postgresTable } from "../../../../src/targets/postgres/table";
import { sqliteTable } from "../../../../src/targets/sqlite/table";
import { openTableReader } from "../../../../src/targets/table/reader";
import { openTableTarget, type TableAccess } from "../../../../src/targets/table/target";
import { queryPostgres, usePostgres } from "../../../helpers/postgres";
import { tempDir } from "../../../helpers/temp";

const postgres = usePostgres();
const NOW = new Date("2026-11-20T06:00:00Z");
const METRICS = ["views", "spending", "clicks"] as const;
const DAY = 86_400;
const START = Date.UTC(2026, 10, 1) / 1000;

function requestOf(hourly: boolean): ReportRequest {
  return {
    from: "2026-11-01",
    to: "2026-11-03",
    metrics: [...METRICS],
    dimensions: ["campaign", "date"],
    granularity: hourly ? "hour" : "day",
  };
}

/** Three days, two campaigns; hourly: three hours a day. Spending whose float sum is not its micros' sum. */
function rowsOf(hourly: boolean, bump = 0): ReportRow[] {
  const rows: ReportRow[] = [];
  for (let d = 0; d < 3; d += 1) {
    for (const hour of hourly ? [0, 5, 23] : [0]) {
      for (const campaign of [1, 2]) {
        rows.push({
          dimensions: { campaign_id: campaign, name: `Spring, "${campaign}"`, date: START + d * DAY + hour * 3600 },
          metrics: { views: 100 + d + hour + bump, spending: [0.1, 0.2, 0.3][d] as number, clicks: campaign + hour },
        });
      }
    }
  }
  return rows;
}

function reportOf(rows: ReportRow[], hourly: boolean) {
  const meta: ReportMeta = {
    granularity: hourly ? "hourly" : "daily",
    dimensions: ["campaign", "date"],
    metrics: [...METRICS],
    total: rows.length,
    page: 1,
    limit: 1000,
    has_more: false,
  };
  return {
    meta,
    totalKnown: true,
    pages: (async function* () {
      yield { rows };
    })(),
  };
}

const SPAN = { from: "2026-11-01", to: "2026-11-03", everyDay: ["2026-11-01", "2026-11-02", "2026-11-03"] };

interface Engine {
  choice(table?: string): TableAccess;
  /** Rows as plain values: numbers as numbers, days and times as text. */
  query(text: string): Promise<Array<Record<string, unknown>>>;
}

async function sqliteEngine(): Promise<Engine> {
  const path = join(tempDir(), "ads.db");
  return {
    choice: (table = "ads") => sqliteTable({ path, table }),
    async query(text) {
      const db = new Database(path, { readonly: true });
      try {
        return db.prepare(text).all() as Array<Record<string, unknown>>;
      } finally {
        db.close();
      }
    },
  };
}

async function postgresEngine(context: { skip(note?: string): never }): Promise<Engine> {
  const url = await postgres.database(context);
  return {
    choice: (table = "ads") => postgresTable({ url, table, shown: "postgres://test", connectTimeoutMs: 10_000 }),
    query: (text) => queryPostgres(url, text),
  };
}

const LOADS = `SELECT run_id, job, target_table, profile, query_scope, CAST(day AS TEXT) AS day,
  CAST(row_count AS INTEGER) AS row_count, CAST(sums AS TEXT) AS sums, requests FROM adreport_loads ORDER BY run_id, day`;

async function run(engine: Engine, options: { runId: string; hourly: boolean; bump?: number; fail?: boolean }) {
  const notes: string[] = [];
  const target = await openTableTarget(engine.choice(), {
    profile: "acme",
    request: requestOf(options.hourly),
    cwd: tempDir(),
    now: NOW,
    sqliteAddon: undefined,
    runId: options.runId,
    job: "job-1",
    note: (text) => notes.push(text),
  });
  try {
    const records = await target.stage(reportOf(rowsOf(options.hourly, options.bump), options.hourly), SPAN);
    const loads: DayLoad[] = [...records].map(([day, r]) => ({ day, rows: r.rows, sums: r.sums, requests: 2 }));
    if (options.fail) await target.abort();
    else await target.commit(new Set(records.keys()), loads);
    return { records, notes };
  } finally {
    await target.close();
  }
}

async function readBack(engine: Engine, hourly: boolean, profile = "acme") {
  const reader = await openTableReader(engine.choice(), {
    profile,
    request: requestOf(hourly),
    cwd: tempDir(),
    sqliteAddon: undefined,
  });
  try {
    return await reader.daySums("2026-11-01", "2026-11-03");
  } finally {
    await reader.close();
  }
}

const plain = (records: Map<string, DayRecord>) =>
  new Map([...records].map(([day, r]) => [day, { rows: r.rows, sums: r.sums }]));

describe.each([
  ["SQLite", sqliteEngine],
  ["PostgreSQL", postgresEngine],
] as const)("%s", (_name, engineOf) => {
  it.for([false, true])(
    "hourly %s: run_id on every row, a loads row per day, the reader's sums equal them",
    async (hourly, context) => {
      const engine = await engineOf(context);
      const { records } = await run(engine, { runId: "run-1", hourly });
      expect(await engine.query("SELECT DISTINCT run_id FROM ads")).toEqual([{ run_id: "run-1" }]);
      const loads = await engine.query(LOADS);
      expect(loads.map((l) => l.day)).toEqual(["2026-11-01", "2026-11-02", "2026-11-03"]);
      for (const load of loads) {
        const record = records.get(load.day as string) as DayRecord;
        expect(load).toMatchObject({
          run_id: "run-1",
          job: "job-1",
          target_table: "ads",
          profile: "acme",
          query_scope: hourly ? "granularity=hour" : "granularity=day",
          row_count: record.rows,
          requests: 2,
        });
        expect(JSON.parse(load.sums as string)).toEqual(record.sums);
      }
      expect(records.get("2026-11-03")?.sums.spending).toBe((hourly ? 6 : 2) * 300_000);
      expect(await readBack(engine, hourly)).toEqual(plain(records));
      expect(await readBack(engine, hourly, "other")).toEqual(new Map());
    },
  );

  it("a failed run leaves the rows and adreport_loads as they were; the next run adds its own", async (context) => {
    const engine = await engineOf(context);
    const first = await run(engine, { runId: "run-1", hourly: false });
    const rowsBefore = await engine.query("SELECT * FROM ads ORDER BY campaign_id, date");
    await run(engine, { runId: "run-2", hourly: false, bump: 5, fail: true });
    expect(await engine.query("SELECT * FROM ads ORDER BY campaign_id, date")).toEqual(rowsBefore);
    expect(new Set((await engine.query(LOADS)).map((l) => l.run_id))).toEqual(new Set(["run-1"]));
    expect(await readBack(engine, false)).toEqual(plain(first.records));
    const third = await run(engine, { runId: "run-3", hourly: false, bump: 5 });
    expect(await engine.query("SELECT DISTINCT run_id FROM ads")).toEqual([{ run_id: "run-3" }]);
    expect((await engine.query(LOADS)).map((l) => l.run_id)).toEqual([
      "run-1",
      "run-1",
      "run-1",
      "run-3",
      "run-3",
      "run-3",
    ]);
    expect(await readBack(engine, false)).toEqual(plain(third.records));
  });

  it("the reader creates nothing: a missing table reads as no days", async (context) => {
    const engine = await engineOf(context);
    expect(await readBack(engine, false)).toEqual(new Map());
    await run(engine, { runId: "run-1", hourly: false });
    const reader = await openTableReader(engine.choice("other_table"), {
      profile: "acme",
      request: requestOf(false),
      cwd: tempDir(),
      sqliteAddon: undefined,
    });
    expect(await reader.daySums("2026-11-01", "2026-11-03")).toEqual(new Map());
    await reader.close();
  });
});

describe("SQLite reader", () => {
  it("a missing database file reads as no days and is not created", async () => {
    const path = join(tempDir(), "none.db");
    const reader = await openTableReader(sqliteTable({ path, table: "ads" }), {
      profile: "",
      request: requestOf(false),
      cwd: tempDir(),
      sqliteAddon: undefined,
    });
    expect(await reader.daySums("2026-11-01", "2026-11-03")).toEqual(new Map());
    await reader.close();
    expect(existsSync(path)).toBe(false);
  });
});
