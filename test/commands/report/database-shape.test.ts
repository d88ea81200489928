/**
 * The shape of a database target's table, through the CLI against a real `serve`, on a real SQLite file
 * and a real PostgreSQL cluster. A table adreport cannot fill (not made by adreport, a column of a type
 * that cannot hold its values, a dimension column the run leaves empty) is refused, exit 2, before any
 * request, the table untouched (it failed after fetching, exit 1, or replaced the other job's rows). A run
 * with more metrics adds their columns and says so; every row carries its run's id, `run_id` added to an
 * older table.
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { startDemoService } from "../../helpers/demo-service";
import { queryPostgres, usePostgres } from "../../helpers/postgres";

const postgres = usePostgres();
const NOW = new Date("2026-11-20T06:00:00Z");
const RANGE = ["--from", "2026-10-25", "--to", "2026-10-27"];
const CAMPAIGNS = ["report", "--dims", "campaign,date", ...RANGE];

interface Target {
  output: string;
  /** The table's description in messages: `the table T in WHERE`. */
  where: RegExp;
  sql(text: string): Promise<Array<Record<string, unknown>>>;
  /** SQL in SQLite's words, or PostgreSQL's. */
  pick(sqlite: string, postgres: string): string;
}

async function sqliteTarget(dir: string): Promise<Target> {
  return {
    output: "sqlite:ads.db",
    where: /in ads\.db/,
    async sql(text) {
      const db = new Database(join(dir, "ads.db"));
      try {
        const statement = db.prepare(text);
        if (statement.reader) return statement.all() as Array<Record<string, unknown>>;
        statement.run();
        return [];
      } finally {
        db.close();
      }
    },
    pick: (sqlite) => sqlite,
  };
}

async function postgresTarget(context: { skip(note?: string): never }): Promise<Target> {
  const url = await postgres.database(context);
  return {
    output: url,
    where: /in postgres:\/\/\S+/,
    sql: (text) => queryPostgres(url, text),
    pick: (_sqlite, postgres) => postgres,
  };
}

async function setUp(engine: "sqlite" | "postgres", context: { skip(note?: string): never }) {
  const demo = await startDemoService({ now: NOW });
  const target = engine === "sqlite" ? await sqliteTarget(demo.dir) : await postgresTarget(context);
  return { run: (args: string[]) => demo.run(args), target };
}

/** Exit 2 before any request (`-v` names every request), naming the table; the table as it was. */
async function expectRefused(
  setup: Awaited<ReturnType<typeof setUp>>,
  args: string[],
  message: RegExp,
  table = "adreport_campaign_date",
) {
  const { run, target } = setup;
  const before = await target.sql(`SELECT * FROM ${table}`);
  const columns = await target.sql(`SELECT * FROM ${table} LIMIT 0`);
  const result = await run([...args, "-o", target.output, "-v"]);
  expect(result.code, result.stderr).toBe(2);
  expect(result.stderr).toMatch(message);
  expect(result.stderr).toMatch(new RegExp(`^adreport: the table ${table} ${target.where.source}`, "m"));
  expect(result.stderr).not.toMatch(/GET /);
  expect(await target.sql(`SELECT * FROM ${table}`)).toEqual(before);
  expect(await target.sql(`SELECT * FROM ${table} LIMIT 0`)).toEqual(columns);
}

describe.each(["sqlite", "postgres"] as const)("%s", (engine) => {
  it("a table not made by adreport: exit 2 naming the columns it lacks, before any request", async (context) => {
    const setup = await setUp(engine, context);
    await setup.target.sql(
      `CREATE TABLE adreport_campaign_date (campaign_id BIGINT, name TEXT, "date" DATE, views BIGINT, spending NUMERIC(20,6), clicks BIGINT, conversions BIGINT)`,
    );
    await setup.target.sql(`INSERT INTO adreport_campaign_date VALUES (1, 'Mine', '2026-10-26', 1, 2.5, 3, 4)`);
    await expectRefused(
      setup,
      CAMPAIGNS,
      /has no columns profile, query_scope, exported_at, which adreport fills: it was not made by adreport for these --dims$/m,
    );
  });

  it("a column of a type that cannot hold what adreport writes: exit 2 naming it and the type", async (context) => {
    const setup = await setUp(engine, context);
    if (engine === "sqlite") {
      await setup.target.sql(
        `CREATE TABLE adreport_campaign_date (campaign_id INTEGER, name TEXT, "date" TEXT, views INTEGER, spending NUMERIC, clicks TEXT, conversions INTEGER, profile TEXT NOT NULL, query_scope TEXT NOT NULL, exported_at TEXT NOT NULL)`,
      );
      await expectRefused(
        setup,
        CAMPAIGNS,
        /has the column clicks of type TEXT, which cannot hold counts \(whole numbers up to 2\^53\): adreport makes it INTEGER$/m,
      );
    } else {
      // A daily table, then an hourly job into it: DATE cannot hold hours.
      const daily = await setup.run([...CAMPAIGNS, "-o", setup.target.output]);
      expect(daily.code, daily.stderr).toBe(0);
      await expectRefused(
        setup,
        [...CAMPAIGNS, "--granularity", "hour"],
        /has the column date of type date, which cannot hold hours \(date and time, UTC\): adreport makes it TIMESTAMPTZ$/m,
      );
    }
  });

  it("a table of other --dims: exit 2 naming the dimension column the run would leave empty", async (context) => {
    const setup = await setUp(engine, context);
    const ads = await setup.run(["report", "--dims", "ad,date", ...RANGE, "-o", setup.target.output, "--table", "t"]);
    expect(ads.code, ads.stderr).toBe(0);
    await expectRefused(
      setup,
      [...CAMPAIGNS, "--table", "t"],
      /has the dimension column ad_id, which --dims does not fill: the days replaced would have none$/m,
      "t",
    );
  });

  it("more metrics: the column is added and said, filled for the days written; fewer: refused", async (context) => {
    const setup = await setUp(engine, context);
    const { run, target } = setup;
    const first = await run([...CAMPAIGNS, "--metrics", "views,clicks", "-o", target.output]);
    expect(first.code, first.stderr).toBe(0);
    const more = ["report", "--dims", "campaign,date", "--from", "2026-10-27", "--to", "2026-10-28"];
    const grown = await run([...more, "--metrics", "views,clicks,conversions", "-o", target.output, "-v"]);
    expect(grown.code, grown.stderr).toBe(0);
    expect(grown.stderr).toMatch(/GET /);
    expect(grown.stderr).toMatch(
      new RegExp(
        `^adreport: added the column conversions to the table adreport_campaign_date ${target.where.source}; the days written before this run have none \\(adreport state reset [0-9a-f-]+ --from DATE writes them again\\)$`,
        "m",
      ),
    );
    const day = target.pick(`"date"`, `to_char("date", 'YYYY-MM-DD')`);
    const filled = await target.sql(
      `SELECT ${day} AS day, count(conversions) AS n FROM adreport_campaign_date GROUP BY 1 ORDER BY 1`,
    );
    expect(filled.map((r) => [r.day, Number(r.n) > 0])).toEqual([
      ["2026-10-25", false],
      ["2026-10-26", false],
      ["2026-10-27", true],
      ["2026-10-28", true],
    ]);
    const again = await run([...more, "--metrics", "views,clicks,conversions", "-o", target.output]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toMatch(/added the column/);
    await expectRefused(
      setup,
      [...CAMPAIGNS, "--metrics", "views,clicks"],
      /has the metric column conversions, which --metrics does not list: the days replaced would have none$/m,
    );
  });

  it("run_id: added to a table of an earlier adreport, one per run on every row it writes", async (context) => {
    const setup = await setUp(engine, context);
    const { run, target } = setup;
    const [date, stamp] = engine === "sqlite" ? ["TEXT", "TEXT"] : ["DATE", "TIMESTAMPTZ"];
    await target.sql(
      `CREATE TABLE adreport_campaign_date (campaign_id BIGINT, name TEXT, "date" ${date}, views BIGINT, spending NUMERIC(20,6), clicks BIGINT, conversions BIGINT, profile TEXT NOT NULL, query_scope TEXT NOT NULL, exported_at ${stamp} NOT NULL)`,
    );
    await target.sql(
      `INSERT INTO adreport_campaign_date VALUES (1, 'Old', '2026-10-26', 1, 2.5, 3, 4, 'other', 'granularity=day', '2026-10-27T00:00:00Z')`,
    );
    const first = await run([...CAMPAIGNS, "-o", target.output]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(
      /^adreport: added the column run_id to the table adreport_campaign_date in \S+; the rows written before this run have none$/m,
    );
    const second = await run([
      "report",
      "--dims",
      "campaign,date",
      "--from",
      "2026-10-27",
      "--to",
      "2026-10-28",
      "-o",
      target.output,
    ]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).not.toMatch(/added the column/);
    const ids = await target.sql(
      `SELECT profile, run_id, count(*) AS n FROM adreport_campaign_date GROUP BY profile, run_id ORDER BY min("date")`,
    );
    expect(ids.map((r) => [r.profile, r.run_id === null])).toEqual([
      ["", false],
      ["other", true],
      ["", false],
    ]);
    expect(ids[0]?.run_id).not.toEqual(ids[2]?.run_id);
  });
});

describe("--table adreport_loads", () => {
  it("is refused, exit 2: that table holds every run's days", async (context) => {
    const { run } = await setUp("sqlite", context);
    const result = await run([...CAMPAIGNS, "-o", "sqlite:ads.db", "--table", "adreport_loads", "-v"]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(
      /^adreport: --table adreport_loads: that table is where adreport records every run's days$/m,
    );
    expect(result.stderr).not.toMatch(/GET /);
  });
});
