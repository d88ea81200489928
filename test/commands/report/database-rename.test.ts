/**
 * A table renamed by hand keeps its index, and its index kept the name adreport gave it from the table's old
 * name. A later run with the old --table makes a new table: it gets an index of its own (SQLite made it
 * without one: CREATE INDEX IF NOT EXISTS found the renamed table's), and the old name never blocks it
 * (PostgreSQL: every run exited 1 `relation "acme_daily_days" already exists`, verify --repair too). A name
 * an index or a view holds is refused before any request, with the statement that frees it.
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { startDemoService } from "../../helpers/demo-service";
import { at, newService } from "../../helpers/incremental";
import { queryPostgres, usePostgres } from "../../helpers/postgres";

const postgres = usePostgres();
const NOW = new Date("2026-11-20T06:00:00Z");
const RUN = ["report", "--dims", "campaign,date", "--from", "2026-10-25", "--to", "2026-10-27"];

async function setUp(engine: "sqlite" | "postgres", context: { skip(note?: string): never }) {
  const demo = await startDemoService({ now: NOW });
  if (engine === "sqlite") {
    return {
      run: demo.run,
      output: "sqlite:ads.db",
      sql(text: string): Array<Record<string, unknown>> {
        const db = new Database(join(demo.dir, "ads.db"));
        try {
          const statement = db.prepare(text);
          if (statement.reader) return statement.all() as Array<Record<string, unknown>>;
          statement.run();
          return [];
        } finally {
          db.close();
        }
      },
      indexes: `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = '%'`,
    };
  }
  const url = await postgres.database(context);
  return {
    run: demo.run,
    output: url,
    sql: (text: string) => queryPostgres(url, text),
    indexes: `SELECT indexname AS name FROM pg_indexes WHERE tablename = '%'`,
  };
}

describe.each(["sqlite", "postgres"] as const)("%s", (engine) => {
  it("a table renamed by hand: the old --table makes a new table with its own index; both tables work", async (context) => {
    const { run, output, sql, indexes } = await setUp(engine, context);
    const first = await run([...RUN, "-o", output, "--table", "acme_daily"]);
    expect(first.code, first.stderr).toBe(0);
    await sql("ALTER TABLE acme_daily RENAME TO acme_daily_2025");

    const again = await run([...RUN, "-o", output, "--table", "acme_daily"]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toBe("");
    expect(await sql(indexes.replace("%", "acme_daily"))).toHaveLength(1);
    expect(await sql("SELECT count(*) AS n FROM acme_daily")).toEqual(
      await sql("SELECT count(*) AS n FROM acme_daily_2025"),
    );

    // The renamed table (made by an earlier run, its index under the old name) is still written, as a third run is.
    for (const table of ["acme_daily_2025", "acme_daily"]) {
      const later = await run([...RUN, "--to", "2026-10-28", "-o", output, "--table", table]);
      expect(later.code, later.stderr).toBe(0);
      expect(await sql(indexes.replace("%", table))).toHaveLength(1);
    }
  });

  it("--table named as an index: exit 2 before any request, with the statement that frees the name", async (context) => {
    const { run, output, sql } = await setUp(engine, context);
    await sql("CREATE TABLE other (profile TEXT, query_scope TEXT, x INTEGER)");
    await sql("CREATE INDEX acme_daily ON other (x)");
    const refused = await run([...RUN, "-o", output, "--table", "acme_daily", "-v"]);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toMatch(
      /^adreport: cannot create the table acme_daily in \S+: an index there already has that name$/m,
    );
    expect(refused.stderr).not.toMatch(/GET /);
    const statement = refused.stderr.match(
      /(?:rename it|drop it \(and make it again under another name\)): (.*)$/m,
    )?.[1];
    expect(statement).toBe(
      engine === "postgres" ? 'ALTER INDEX "acme_daily" RENAME TO "acme_daily_old"' : 'DROP INDEX "acme_daily"',
    );
    await sql(statement as string);
    const after = await run([...RUN, "-o", output, "--table", "acme_daily"]);
    expect(after.code, after.stderr).toBe(0);
  });
});

describe("verify --repair of a job whose table was renamed by hand", () => {
  it("makes the table again, with an index, instead of exit 1 `relation ... already exists`", async (context) => {
    const url = await postgres.database(context);
    const { run } = await newService();
    const now = at("2026-11-02");
    const cron = ["report", "--dims", "campaign,date", "--incremental", "--start", "2026-10-28", "-q"];
    expect((await run([...cron, "-o", url, "--table", "acme_daily"], now)).code).toBe(0);
    await queryPostgres(url, "ALTER TABLE acme_daily RENAME TO acme_daily_2025");
    const jobs = JSON.parse((await run(["state", "list", "--format", "json"], now)).stdout) as Array<{ job: string }>;
    const repair = await run(["verify", jobs[0]?.job as string, "--repair"], now);
    expect(repair.stderr).not.toMatch(/already exists/);
    expect(repair.stderr).toMatch(/^adreport: repairing 2026-10-28\.\.2026-11-01$/m);
    expect(repair.stderr).toMatch(/5 days checked, every one matches; 5 repaired$/m);
    expect(repair.code, repair.stderr).toBe(0);
    expect(await queryPostgres(url, "SELECT indexname FROM pg_indexes WHERE tablename = 'acme_daily'")).toHaveLength(1);
  });
});
