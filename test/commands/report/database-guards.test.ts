/**
 * Database targets guarding a table they share: a run with fewer --metrics than the table keeps is refused
 * (it set the other metric columns to NULL for every day it replaced), and a PostgreSQL run kept waiting by
 * another session's lock gives up after 10 s as SQLite does, saying what it waited for (it waited forever;
 * --max-time blamed a page that had come).
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { startDemoService } from "../../helpers/demo-service";
import { usePostgres } from "../../helpers/postgres";
import type { CliResult } from "../../helpers/spawn-cli";

const postgres = usePostgres();
const NOW = new Date("2026-11-20T06:00:00Z");
const RANGE = ["--dims", "campaign,date", "--from", "2026-10-25", "--to", "2026-10-27"];
const ALL = ["--metrics", "views,spending,clicks,conversions"];

async function newService() {
  const { dir, run } = await startDemoService({ now: NOW });
  return { dir, run: (args: string[]) => run(args) };
}

async function query(url: string, text: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

const COUNTS =
  "SELECT count(clicks)::int AS clicks, count(conversions)::int AS conversions FROM adreport_campaign_date";

describe("a database run with fewer --metrics than the table keeps", () => {
  it("SQLite: exit 2 naming the columns, before any request; the table keeps its values", async () => {
    const { dir, run } = await newService();
    expect((await run(["report", ...RANGE, ...ALL, "-o", "sqlite:ads.db"])).code).toBe(0);
    const counts = () =>
      new Database(join(dir, "ads.db"), { readonly: true })
        .prepare("SELECT count(clicks) AS clicks, count(conversions) AS conversions FROM adreport_campaign_date")
        .get();
    const before = counts();
    expect(before).toMatchObject({ clicks: expect.any(Number) });
    const fewer = await run(["report", ...RANGE, "--metrics", "views,spending", "-o", "sqlite:ads.db", "-v"]);
    expect(fewer.code, fewer.stderr).toBe(2);
    expect(fewer.stderr).toMatch(
      /^adreport: the table adreport_campaign_date in ads\.db has the metric columns clicks, conversions, which --metrics does not list/m,
    );
    expect(fewer.stderr).toMatch(/--metrics views,spending,clicks,conversions/);
    expect(fewer.stderr).not.toMatch(/GET /);
    expect(counts()).toEqual(before);
    // The same metrics in another order, or one more, are fine.
    const reordered = await run([
      "report",
      ...RANGE,
      "--metrics",
      "conversions,clicks,spending,views",
      "-o",
      "sqlite:ads.db",
    ]);
    expect(reordered.code, reordered.stderr).toBe(0);
  });

  it("PostgreSQL: the same", async (context) => {
    const url = await postgres.database(context);
    const { run } = await newService();
    expect((await run(["report", ...RANGE, ...ALL, "-o", url])).code).toBe(0);
    const before = await query(url, COUNTS);
    const fewer = await run(["report", ...RANGE, "--metrics", "views,spending,clicks", "-o", url]);
    expect(fewer.code, fewer.stderr).toBe(2);
    expect(fewer.stderr).toMatch(/has the metric column conversions, which --metrics does not list/);
    expect(await query(url, COUNTS)).toEqual(before);
  });
});

describe("PostgreSQL: another session holds a lock on the table", () => {
  const ROWS = "SELECT count(*)::int AS n FROM adreport_campaign_date";

  /** A database whose table another session holds in SHARE mode until `release`. */
  async function lockedTable(context: { skip(note?: string): never }, run: (args: string[]) => Promise<CliResult>) {
    const url = await postgres.database(context);
    expect((await run(["report", ...RANGE, "-o", url])).code).toBe(0);
    const before = await query(url, ROWS);
    const blocker = new pg.Client({ connectionString: url });
    await blocker.connect();
    await blocker.query("BEGIN");
    await blocker.query("LOCK TABLE adreport_campaign_date IN SHARE MODE");
    const release = async () => {
      await blocker.query("ROLLBACK");
      await blocker.end();
    };
    return { url, before, release };
  }

  it("gives up after 10 s, exit 5, saying what it waited for; --max-time says so too", async (context) => {
    const { run } = await newService();
    // Two databases, each table locked: the run with --max-time waits side by side with the one that waits
    // the 10 s (on one table it would wait for that run, replacing the same days, instead of for the lock).
    const one = await lockedTable(context, run);
    const two = await lockedTable(context, run).catch(async (error: unknown) => {
      await one.release();
      throw error;
    });
    try {
      const started = Date.now();
      const [waited, limited] = await Promise.all([
        run(["report", ...RANGE, "-o", one.url]).then((result) => ({ ...result, ended: Date.now() })),
        run(["report", ...RANGE, "-o", two.url, "--max-time", "3s"]),
      ]);
      const seconds = (waited.ended - started) / 1000;
      expect(waited.code, waited.stderr).toBe(5);
      expect(waited.stderr).toMatch(
        /^adreport: waited 10 s for a lock on the table adreport_campaign_date in postgres:\/\/\S+ held by another session; the table was left as it was$/m,
      );
      expect(seconds).toBeGreaterThanOrEqual(9.5);
      expect(seconds).toBeLessThan(20);
      expect(limited.code, limited.stderr).toBe(5);
      expect(limited.stderr).toMatch(
        /^adreport: gave up after 3s \(max-time\): waited \d+\.\d s for a lock on the table adreport_campaign_date in \S+ held by another session/m,
      );
      expect(limited.stderr).not.toMatch(/first page/);
    } finally {
      await one.release();
      await two.release();
    }
    expect(await query(one.url, ROWS)).toEqual(one.before);
    expect(await query(two.url, ROWS)).toEqual(two.before);
  }, 40_000);
});
