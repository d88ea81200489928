/**
 * What only PostgreSQL has: several `serve` processes on one database (a key issued or data loaded
 * through one is seen by the others), the same answers as SQLite byte for byte, the URL's password never
 * shown, and a shared database's other tables left alone.
 */
import { execFileSync } from "node:child_process";
import { createWriteStream, writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { beforeEach, describe, expect, it } from "vitest";
import { parseReportQuery } from "../../src/contract";
import { postgresPageStatement } from "../../src/server/pg/report-sql";
import { FRESHNESS_MS } from "../../src/server/store/types";
import { postgresBackend, sqliteBackend, sqlNumber } from "../helpers/backends";
import { httpGet } from "../helpers/http";
import { runInProcess, startInProcess } from "../helpers/run-cli-in-process";
import { serveDatabase, startTestService } from "../helpers/serve";
import { serveInProcess } from "../helpers/serve-in-process";
import { tempDir } from "../helpers/temp";

const postgres = await postgresBackend();
beforeEach((context) => postgres.skipUnavailable(context));
const dir = tempDir();

const LINE = {
  advertiser: "Acme",
  campaign_id: 1,
  campaign: "Spring",
  ad_id: 10,
  ad: "Banner A",
  hour: "2026-11-01T13:00:00Z",
  views: 120,
  clicks: 7,
  bot_clicks: 1,
  spending: 3.25,
  conversions: 1,
};

function ndjson(name: string, lines: unknown[]): string {
  const path = join(dir, name);
  writeFileSync(path, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
  return path;
}

const REPORT = "/v1/report?from=2026-11-01&to=2026-11-01T23:59:59Z&metrics=views,spending";

describe("two serve processes on one database", () => {
  it("a key issued and data loaded through the operator verbs are seen by both", async () => {
    const db = await postgres.newDb();
    expect((await runInProcess(["serve", "init", "--db", db])).code).toBe(0);
    expect((await runInProcess(["serve", "load", "--db", db, ndjson("a.ndjson", [LINE])])).code).toBe(0);
    let clock = 0;
    const nowMs = () => clock;
    const one = await serveDatabase(db, { serve: { nowMs, trustProxy: ["127.0.0.1"] } });
    const two = await serveDatabase(db, { serve: { nowMs, trustProxy: ["127.0.0.1"] } });
    const issued = await runInProcess([
      "serve",
      "key",
      "issue",
      "--db",
      db,
      "--advertiser",
      "Acme",
      "--ip",
      "10.1.2.3",
    ]);
    expect(issued.code).toBe(0);
    const key = issued.stdout.trim();
    // Behind a load balancer: the caller is the forwarded address, on either process.
    const headers = { "x-forwarded-for": "10.1.2.3" };
    const first = await httpGet(`${one.url}${REPORT}`, { key, headers });
    expect(first.status).toBe(200);
    expect((first.json as { data: unknown[] }).data).toEqual([
      { dimensions: {}, metrics: { views: 120, spending: 3.25 } },
    ]);
    expect((await httpGet(`${two.url}${REPORT}`, { key, headers })).text).toBe(first.text);

    expect((await runInProcess(["serve", "load", "--db", db, ndjson("b.ndjson", [{ ...LINE, views: 7 }])])).code).toBe(
      0,
    );
    clock += FRESHNESS_MS;
    for (const server of [one, two]) {
      const after = await httpGet(`${server.url}${REPORT}`, { key, headers });
      expect((after.json as { data: Array<{ metrics: unknown }> }).data[0]?.metrics).toEqual({
        views: 7,
        spending: 3.25,
      });
    }

    expect((await runInProcess(["serve", "key", "revoke", "--db", db, "1"])).code).toBe(0);
    clock += FRESHNESS_MS;
    for (const server of [one, two]) {
      expect((await httpGet(`${server.url}${REPORT}`, { key, headers })).status).toBe(401);
    }
  });

  it("serve as a command reads the URL, and never prints its password", async () => {
    const db = await postgres.newDb();
    expect((await runInProcess(["serve", "init", "--db", db])).code).toBe(0);
    const withPassword = db.replace("postgres://adreport@", "postgres://adreport:s3cret-word@");
    const serve = await serveInProcess(["--db", withPassword]);
    const stopped = await serve.stop();
    expect(stopped.code).toBe(0);
    expect(stopped.stderr).toContain("adreport:***@");
    expect(stopped.stderr).not.toContain("s3cret-word");
  });
});

describe("a database that goes away while serving", () => {
  it("is answered 503 with Retry-After, never 500, and served again once it is back", async () => {
    const db = await postgres.newDb();
    const name = new URL(db).pathname.slice(1);
    expect((await runInProcess(["serve", "init", "--db", db])).code).toBe(0);
    expect((await runInProcess(["serve", "load", "--db", db, ndjson("d.ndjson", [LINE])])).code).toBe(0);
    const key = (
      await runInProcess(["serve", "key", "issue", "--db", db, "--advertiser", "Acme", "--ip", "127.0.0.1"])
    ).stdout.trim();
    let clock = 0;
    const notices: string[] = [];
    const served = await serveDatabase(db, { serve: { nowMs: () => clock, notice: (line) => notices.push(line) } });
    const get = (extra = "") => httpGet(`${served.url}${REPORT}${extra}`, { key });
    expect((await get()).status).toBe(200);
    const admin = postgres.admin();
    await admin(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
    await admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}'`);
    clock += FRESHNESS_MS;
    for (const extra of ["", "&dimensions=campaign"]) {
      const down = await get(extra);
      expect(down.status).toBe(503);
      expect(down.headers["retry-after"]).toBe("1");
      expect((down.json as { error: { code: string } }).error.code).toBe("service_unavailable");
    }
    await admin(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
    clock += 1_000;
    expect((await get()).status).toBe(200);
    expect(notices.filter((line) => line.startsWith("database error"))).toHaveLength(1);
  });
});

describe("a connection cut in the middle of a load", () => {
  it("is exit 5, keeps nothing of the file, and the process lives on", async () => {
    const db = await postgres.newDb();
    const name = new URL(db).pathname.slice(1);
    expect((await runInProcess(["serve", "init", "--db", db])).code).toBe(0);
    const fifo = join(dir, "slow.ndjson");
    execFileSync("mkfifo", [fifo]);
    const run = startInProcess(["serve", "load", "--db", db, fifo]);
    const writer = createWriteStream(fifo);
    writer.write(`${JSON.stringify(LINE)}\n`);
    const admin = postgres.admin();
    // The load's transaction is open and waits for more lines.
    for (let tries = 0; tries < 500; tries += 1) {
      const open = (await admin(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = '${name}' AND state = 'idle in transaction'`,
      )) as { rows: Array<{ n: number }> };
      if ((open.rows[0]?.n ?? 0) > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}'`);
    writer.end(`${JSON.stringify({ ...LINE, hour: "2026-11-01T14:00:00Z" })}\n`);
    const result = await run.result;
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(
      /^adreport: lost the connection to postgres:\/\/.*nothing of this change was kept\n$/,
    );
    expect(await sqlNumber(db, "SELECT count(*) FROM ad_hours")).toBe(0);
  });
});

describe("roles and schemas", () => {
  it("init in a schema the URL names, and serve with a role that may only SELECT", async () => {
    const db = await postgres.newDb();
    const suffix = Math.random().toString(36).slice(2, 8);
    const [owner, reader] = [`owner_${suffix}`, `reader_${suffix}`];
    const pg = await import("pg");
    const admin = new pg.default.Client({ connectionString: db });
    await admin.connect();
    try {
      await admin.query(`CREATE ROLE ${owner} LOGIN; CREATE ROLE ${reader} LOGIN`);
      await admin.query(`CREATE SCHEMA adr AUTHORIZATION ${owner}`);
      const as = (role: string) =>
        `${db.replace("postgres://adreport@", `postgres://${role}@`)}?options=-c%20search_path%3Dadr`;
      expect((await runInProcess(["serve", "init", "--db", as(owner)])).code).toBe(0);
      expect((await runInProcess(["serve", "load", "--db", as(owner), ndjson("r.ndjson", [LINE])])).code).toBe(0);
      const issued = await runInProcess([
        "serve",
        "key",
        "issue",
        "--db",
        as(owner),
        "--advertiser",
        "Acme",
        "--ip",
        "127.0.0.1",
      ]);
      expect(issued.code).toBe(0);
      const tables = await admin.query(
        "SELECT schemaname, count(*)::int AS n FROM pg_tables WHERE tablename = 'ad_hours' GROUP BY 1",
      );
      expect(tables.rows).toEqual([{ schemaname: "adr", n: 1 }]);

      // Before any grant the reader cannot serve: exit 2, naming the database, not an unexpected error.
      const refused = await runInProcess(["serve", "--db", as(reader), "--port", "0"]);
      expect(refused.code).toBe(2);
      await admin.query(
        `GRANT USAGE ON SCHEMA adr TO ${reader}; GRANT SELECT ON ALL TABLES IN SCHEMA adr TO ${reader}`,
      );
      const serve = await serveInProcess(["--db", as(reader), "--quiet"]);
      const answer = await httpGet(`${serve.url}${REPORT}`, { key: issued.stdout.trim() });
      expect(answer.status).toBe(200);
      expect((await serve.stop()).code).toBe(0);
      // The reader may not write: an operator verb with its URL fails as an operator mistake.
      const write = await runInProcess(["serve", "key", "revoke", "--db", as(reader), "1"]);
      expect(write.code).toBe(2);
      expect(write.stderr).toContain("permission denied");
    } finally {
      await admin.end();
    }
  });
});

describe("the same answers as SQLite", () => {
  const queries = [
    "metrics=views,clicks,spending,conversions,ctr,cpc",
    "metrics=views,spending&dimensions=campaign,date",
    "metrics=views,spending&dimensions=ad,date&granularity=hour&limit=50&page=3",
    "metrics=clicks&dimensions=keyword&granularity=week",
    "metrics=spending&dimensions=date&granularity=month",
    "metrics=views&dimensions=ad&campaign_id=1",
    "metrics=views&dimensions=campaign,date&limit=10&page=999",
  ];
  it("byte for byte, for every shape of report", async () => {
    const keys = [{ advertiser: "Acme Outdoor", ips: ["127.0.0.1"] }];
    const lite = await startTestService({ keys, backend: sqliteBackend() });
    const pg = await startTestService({ keys, backend: postgres });
    for (const query of queries) {
      const range = "from=2026-09-20T05:00:00Z&to=2026-10-31T17:59:59Z";
      const a = await httpGet(`${lite.url}/v1/report?${range}&${query}`, { key: lite.keys[0] });
      const b = await httpGet(`${pg.url}/v1/report?${range}&${query}`, { key: pg.keys[0] });
      expect([query, b.status]).toEqual([query, a.status]);
      expect(b.text).toBe(a.text);
    }
  });
});

describe("the statements of a report", () => {
  it("read a page in the order its rows are made, without sorting the page again", async () => {
    const db = await postgres.newDb();
    const demo = ["serve", "demo", "--db", db, "--advertisers", "1", "--campaigns", "2", "--ads", "3", "--days", "3"];
    expect((await runInProcess([...demo, "--keywords", "0", "--end", "2026-11-01"])).code).toBe(0);
    const parsed = parseReportQuery(
      new URLSearchParams("from=2026-10-29&to=2026-10-31&metrics=views,spending&dimensions=ad,date&granularity=hour"),
    );
    if (!parsed.ok) throw new Error(parsed.error.message);
    const client = new pg.Client({ connectionString: db });
    await client.connect();
    try {
      const ads = await client.query<{ id: string; advertiser_id: string }>(
        "SELECT a.id, c.advertiser_id FROM ads a JOIN campaigns c ON c.id = a.campaign_id ORDER BY a.id",
      );
      const [first, last] = [ads.rows[0], ads.rows[ads.rows.length - 1]];
      const span = { from: Number(first?.id), to: Number(last?.id), skip: 5 };
      const statement = postgresPageStatement(parsed.query, Number(first?.advertiser_id), span, 40);
      const plan = await client.query({ ...statement, text: `EXPLAIN ${statement.text}` });
      const lines = plan.rows.map((row: Record<string, string>) => row["QUERY PLAN"] ?? "");
      // The page's own ORDER BY with its LIMIT is the one sort there may be: none above it.
      const limit = lines.findIndex((line) => line.includes("Limit"));
      expect(limit).toBeGreaterThan(0);
      expect(lines.slice(0, limit).filter((line) => /\bSort\b/.test(line))).toEqual([]);
      const rows = await client.query({ ...statement, rowMode: "array" });
      expect(rows.rows).toHaveLength(40);
    } finally {
      await client.end();
    }
  });
});

describe("operator mistakes", () => {
  it("a file contradicting itself is refused at the same line as on SQLite, all or nothing", async () => {
    const file = ndjson("conflict.ndjson", [
      LINE,
      { ...LINE, hour: "2026-11-01T14:00:00Z" },
      { ...LINE, campaign_id: 2, hour: "2026-11-01T15:00:00Z" },
      { ...LINE, views: "many" },
    ]);
    const messages: string[] = [];
    for (const backend of [sqliteBackend(), postgres]) {
      const db = await backend.newDb();
      expect((await runInProcess(["serve", "init", "--db", db])).code).toBe(0);
      const load = await runInProcess(["serve", "load", "--db", db, file]);
      expect(load.code).toBe(2);
      messages.push(load.stderr);
    }
    expect(messages[1]).toBe(messages[0]);
    expect(messages[0]).toContain("conflict.ndjson:3: ad 10 already belongs to another campaign");
  });

  it("an unreachable server is exit 5 naming the database without its password", async () => {
    const result = await runInProcess(["serve", "key", "list", "--db", "postgres://u:hunter2@127.0.0.1:1/x"]);
    expect(result.code).toBe(5);
    expect(result.stderr).toContain("postgres://u:***@127.0.0.1:1/x");
    expect(result.stderr).not.toContain("hunter2");
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("init leaves a schema holding another program's table of the same name as it was, exit 2", async () => {
    const db = await postgres.newDb();
    const pg = await import("pg");
    const client = new pg.default.Client({ connectionString: db });
    await client.connect();
    try {
      await client.query("CREATE TABLE ads (x int); INSERT INTO ads VALUES (42)");
      const init = await runInProcess(["serve", "init", "--db", db]);
      expect(init.code).toBe(2);
      expect(init.stderr).toContain("is not an adreport database");
      expect((await client.query("SELECT x FROM ads")).rows).toEqual([{ x: 42 }]);
      const serve = await runInProcess(["serve", "--db", db, "--port", "0"]);
      expect(serve.code).toBe(2);
    } finally {
      await client.end();
    }
  });
});
