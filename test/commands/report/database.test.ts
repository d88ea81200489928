/**
 * Database targets (`sqlite:PATH`, a real PostgreSQL cluster) against a real `serve` restated between runs:
 * the table holds, row for row, what a full export of the same range says; a run with nothing changed, a
 * restated day, a failed run (table and state as they were) and a run repeated (idempotent).
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { startDemoService } from "../../helpers/demo-service";
import { usePostgres } from "../../helpers/postgres";
import type { RefLine } from "../../helpers/reference";

const postgres = usePostgres();
const at = (day: string) => new Date(`${day}T06:00:00Z`);
type Row = [number, string, string, number, number, number, number];

async function newService() {
  const demo = await startDemoService();
  const { service, dir, reopen } = demo;
  const run = (args: string[], now: Date) => demo.run(args, now);
  const restate = async (day: string) => {
    const line = service.lines.find(
      (l) => l.hour.startsWith(day) && l.keyword_id === undefined && l.advertiser === "Acme Outdoor",
    ) as RefLine;
    await demo.load([{ ...line, spending: line.spending + 7.25, clicks: line.clicks + 2 }]);
  };
  /** The full export of the range, the ordinary way, as table rows. */
  const fullExport = async (from: string, to: string, now: Date): Promise<Row[]> => {
    const result = await run(["report", "--dims", "campaign,date", "--from", from, "--to", to, "-f", "ndjson"], now);
    expect(result.code, result.stderr).toBe(0);
    return result.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .map(
        (r) =>
          [
            r.dimensions.campaign_id,
            r.dimensions.name,
            new Date(r.dimensions.date * 1000).toISOString().slice(0, 10),
            r.metrics.views,
            r.metrics.spending,
            r.metrics.clicks,
            r.metrics.conversions,
          ] as Row,
      )
      .sort((a, b) => a[0] - b[0] || (a[2] < b[2] ? -1 : 1));
  };
  return { dir, run, reopen, restate, fullExport };
}

interface Engine {
  output(dir: string): Promise<string>;
  rows(output: string): Promise<Row[]>;
}

const SELECT =
  'SELECT campaign_id, name, "date", views, spending, clicks, conversions FROM adreport_campaign_date ORDER BY campaign_id, "date"';

const sqlite: Engine = {
  output: async (dir) => `sqlite:${join(dir, "ads.db")}`,
  async rows(output) {
    const db = new Database(output.slice("sqlite:".length), { readonly: true });
    try {
      return (db.prepare(SELECT).raw().all() as Row[]).map((r) => r.map((v) => v) as Row);
    } finally {
      db.close();
    }
  },
};

function postgresEngine(context: { skip(note?: string): never }): Engine {
  return {
    output: async () => await postgres.database(context),
    async rows(output) {
      const client = new pg.Client({ connectionString: output });
      await client.connect();
      try {
        const result = await client.query({
          text: SELECT.replace('"date"', `to_char("date", 'YYYY-MM-DD') AS "date"`),
          rowMode: "array",
        });
        return result.rows.map((r: unknown[]) => [
          Number(r[0]),
          String(r[1]),
          String(r[2]),
          Number(r[3]),
          Number(r[4]),
          Number(r[5]),
          Number(r[6]),
        ]);
      } finally {
        await client.end();
      }
    },
  };
}

const CRON = ["report", "--dims", "campaign,date", "--incremental"];

describe.each([
  ["sqlite", () => sqlite],
  ["postgres", postgresEngine],
] as const)("--output %s", (_name, engineOf) => {
  it("holds what a full export says, through unchanged, restated and failed runs", async (context) => {
    const engine = engineOf(context);
    const { dir, run, reopen, restate, fullExport } = await newService();
    const output = await engine.output(dir);
    const first = await run([...CRON, "-o", output, "--start", "2026-10-20"], at("2026-10-30"));
    expect(first.code, first.stderr).toBe(0);
    expect(await engine.rows(output)).toEqual(await fullExport("2026-10-20", "2026-10-29", at("2026-10-30")));

    const again = await run([...CRON, "-o", output], at("2026-10-30"));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toMatch(/->/);
    expect(await engine.rows(output)).toEqual(await fullExport("2026-10-20", "2026-10-29", at("2026-10-30")));

    await restate("2026-10-28");
    const restated = await run([...CRON, "-o", output, "--summary", "json"], at("2026-11-02"));
    expect(restated.code, restated.stderr).toBe(0);
    expect(restated.stderr).toMatch(/^adreport: 2026-10-28: spending [\d,.]+ -> [\d,.]+, clicks/m);
    expect(await engine.rows(output)).toEqual(await fullExport("2026-10-20", "2026-11-01", at("2026-11-02")));

    const before = await engine.rows(output);
    await restate("2026-10-31");
    await reopen("reset-body:every3");
    const failed = await run(
      [...CRON, "-o", output, "--page-size", "2", "--retries", "0", "--lookback", "10d"],
      at("2026-11-02"),
    );
    expect(failed.code, failed.stderr).toBe(5);
    expect(await engine.rows(output)).toEqual(before);
    await reopen();
    const next = await run([...CRON, "-o", output], at("2026-11-02"));
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toMatch(/2026-10-31: spending/);
    expect(await engine.rows(output)).toEqual(await fullExport("2026-10-20", "2026-11-01", at("2026-11-02")));

    // A plain run over a range, twice: the same table (idempotent), the days outside it untouched.
    for (let i = 0; i < 2; i += 1) {
      const plain = await run(
        ["report", "--dims", "campaign,date", "--from", "2026-10-25", "--to", "2026-10-27", "-o", output],
        at("2026-11-02"),
      );
      expect(plain.code, plain.stderr).toBe(0);
      expect(await engine.rows(output)).toEqual(await fullExport("2026-10-20", "2026-11-01", at("2026-11-02")));
    }
  });
});

describe("database targets: refusals", () => {
  it("a database that cannot be written is exit 1 with one line naming it", async () => {
    const { dir, run } = await newService();
    const folder = join(dir, "no-such-folder", "ads.db");
    const result = await run(
      ["report", "--dims", "campaign,date", "--from", "2026-10-25", "--to", "2026-10-27", "-o", `sqlite:${folder}`],
      at("2026-11-02"),
    );
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/^adreport: cannot write /);
    const noDate = await run(["report", "--dims", "campaign", "-o", "sqlite:x.db"], at("2026-11-02"));
    expect(noDate.code).toBe(2);
    const badTable = await run(
      ["report", "--dims", "campaign,date", "-o", "sqlite:x.db", "--table", "a;b"],
      at("2026-11-02"),
    );
    expect(badTable.code).toBe(2);
  });
});
