/**
 * `-o duckdb:PATH` where the file or the table is not what a run can fill: another process holding the file
 * (a child process with its own DuckDB connection, as a duckdb shell would), a damaged or foreign file, a
 * device, a FIFO, a folder, a missing folder; a table not made by adreport, an adreport_loads that is not
 * adreport's, a view of the table's name, a column that cannot hold the values. Each is one line naming the
 * file or the table, never DuckDB's own text, and the file as it was. Schema growth, several accounts into
 * one table, and --dry-run's words.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { configDirWith } from "../../helpers/config";
import { startDemoService } from "../../helpers/demo-service";
import { duckdbExec, duckdbRows } from "../../helpers/duckdb";
import { runInProcess } from "../../helpers/run-cli-in-process";
import { SMALL_DEMO, startTestService } from "../../helpers/serve";
import { cliCommand, environment } from "../../helpers/spawn-cli";
import { tempDir } from "../../helpers/temp";

const NOW = new Date("2026-11-20T06:00:00Z");
const RANGE = ["report", "--dims", "campaign,date", "--from", "2026-10-25", "--to", "2026-10-27"];
const TABLE = "adreport_campaign_date";

async function newService() {
  const { dir, run } = await startDemoService({ now: NOW });
  return { dir, run: (args: string[]) => run(args), path: join(dir, "ads.duckdb") };
}

/** Nothing of DuckDB's own words (`IO Error:`, its documentation's link, a stack) reaches the user. */
function expectOwnWords(stderr: string): void {
  expect(stderr).not.toMatch(/Error:|duckdb\.org|\bat .*\.js:\d+/);
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

/** Another process with the file open (read-write), as a duckdb shell or a notebook holds it. */
async function holdFile(path: string): Promise<ChildProcess> {
  const api = createRequire(import.meta.url).resolve("@duckdb/node-api");
  const script = `require(${JSON.stringify(api)}).DuckDBInstance.create(${JSON.stringify(path)}).then((db) => { globalThis.db = db; process.stdout.write("held\\n"); setInterval(() => {}, 1000); })`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout?.once("data", () => resolve());
    child.once("exit", (code) => reject(new Error(`the holder ended (${code})`)));
  });
  return child;
}

describe("duckdb: one writer at a time", () => {
  it("another process holds the file: report and verify wait 10 s, then exit 1 in one line naming the file; the table as it was", async () => {
    const { run, path } = await newService();
    const cron = [...RANGE.slice(0, 3), "--incremental", "--start", "2026-10-25", "-o", "duckdb:ads.duckdb"];
    expect((await run(cron)).code).toBe(0);
    const before = await duckdbRows(path, `SELECT count(*), sum(clicks) FROM ${TABLE}`);
    const holder = await holdFile(path);
    const started = Date.now();
    const refused = await run([...RANGE, "-o", "duckdb:ads.duckdb"]);
    const waited = (Date.now() - started) / 1000;
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).toMatch(
      new RegExp(
        `^adreport: cannot write ads\\.duckdb: another process \\(PID ${holder.pid}\\) has the file open, and DuckDB lets one process at a time open a database file; the table was left as it was\\nhint: let that process finish, or close it \\(a duckdb shell, a notebook holding the file\\), then run again\\n$`,
      ),
    );
    expectOwnWords(refused.stderr);
    expect(waited).toBeGreaterThanOrEqual(9.5);

    const list = JSON.parse((await run(["state", "list", "--format", "json"])).stdout) as Array<{ job: string }>;
    const verify = await run(["verify", (list[0] as { job: string }).job]);
    expect(verify.code, verify.stderr).toBe(1);
    expect(verify.stderr).toMatch(
      /^adreport: cannot read the table adreport_campaign_date in \S*ads\.duckdb: another process/m,
    );
    expectOwnWords(verify.stderr);

    holder.kill("SIGKILL");
    await new Promise((resolve) => holder.once("exit", resolve));
    expect(await duckdbRows(path, `SELECT count(*), sum(clicks) FROM ${TABLE}`)).toEqual(before);
    const after = await run([...RANGE, "-o", "duckdb:ads.duckdb"]);
    expect(after.code, after.stderr).toBe(0);
  }, 60_000);
});

describe("duckdb: SIGTERM while another process holds the file", () => {
  it("the run ends at once (a real process: nothing of the file was begun), the table as it was", async () => {
    const demo = await startDemoService({ now: NOW });
    const path = join(demo.dir, "ads.duckdb");
    expect((await demo.run([...RANGE, "-o", "duckdb:ads.duckdb"])).code).toBe(0);
    const before = await duckdbRows(path, `SELECT count(*), sum(clicks) FROM ${TABLE}`);
    const holder = await holdFile(path);
    const [command, args] = cliCommand([...RANGE, "-o", "duckdb:ads.duckdb"]);
    const child = spawn(command, args, { cwd: demo.dir, env: environment(demo.env), stdio: "ignore" });
    children.push(child);
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once("exit", (code, signal) => resolve({ code, signal })),
    );
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const signalled = Date.now();
    child.kill("SIGTERM");
    const result = await ended;
    expect((Date.now() - signalled) / 1000).toBeLessThan(3);
    expect(result.code === 130 || result.signal === "SIGTERM").toBe(true);
    holder.kill("SIGKILL");
    await new Promise((resolve) => holder.once("exit", resolve));
    expect(await duckdbRows(path, `SELECT count(*), sum(clicks) FROM ${TABLE}`)).toEqual(before);
  }, 30_000);
});

describe("duckdb: kill -9 in the middle of a run", () => {
  it("the file opens again holding what it held before; the next run fills it", async () => {
    const demo = await startDemoService({ now: NOW });
    const path = join(demo.dir, "ads.duckdb");
    const hourly = [
      "report",
      "--dims",
      "ad,date",
      "--granularity",
      "hour",
      "--from",
      "2026-10-25",
      "--to",
      "2026-10-27",
    ];
    const SUMS = "SELECT count(*), sum(clicks), CAST(sum(spending) AS VARCHAR) FROM adreport_ad_date";
    expect((await demo.run([...hourly, "-o", "duckdb:ads.duckdb"])).code).toBe(0);
    const before = await duckdbRows(path, SUMS);
    await demo.reopen("delay:300ms");
    const [command, args] = cliCommand([...hourly, "-o", "duckdb:ads.duckdb", "--page-size", "20", "-v"]);
    const child = spawn(command, args, {
      cwd: demo.dir,
      env: environment(demo.env),
      stdio: ["ignore", "ignore", "pipe"],
    });
    children.push(child);
    // Killed once a few pages are in (their rows staged in DuckDB's open transaction).
    await new Promise<void>((resolve, reject) => {
      let pages = 0;
      child.stderr?.on("data", (chunk: Buffer) => {
        pages += (chunk.toString().match(/GET /g) ?? []).length;
        if (pages >= 4) resolve();
      });
      child.once("exit", () => reject(new Error(`the run ended after ${pages} pages`)));
    });
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    expect(await duckdbRows(path, SUMS)).toEqual(before);
    await demo.reopen();
    const again = await demo.run([...hourly, "-o", "duckdb:ads.duckdb"]);
    expect(again.code, again.stderr).toBe(0);
    expect(await duckdbRows(path, SUMS)).toEqual(before);
  }, 60_000);
});

describe("duckdb: a path that is no DuckDB file", () => {
  it("a damaged or foreign file, an empty one: exit 1, one line naming it, the file untouched", async () => {
    const { dir, run } = await newService();
    const cases: Array<[string, string | Buffer, RegExp]> = [
      [
        "sqlite.duckdb",
        "SQLite format 3\u0000".padEnd(8192, "x"),
        /it is a SQLite database, not a DuckDB one\nhint: for a SQLite file use -o sqlite:PATH/,
      ],
      [
        "text.duckdb",
        "id,name\n1,a\n",
        /it is not a DuckDB database file \(damaged, or another kind of file\)\nhint: move that file away/,
      ],
      ["empty.duckdb", "", /it is an empty file, not a DuckDB database\nhint: remove it/],
    ];
    // A real DuckDB file cut short: its header is there, its blocks are not.
    const whole = join(dir, "whole.duckdb");
    expect((await run([...RANGE, "-o", `duckdb:${whole}`])).code).toBe(0);
    execFileSync("truncate", ["-s", "4096", whole]);
    cases.push([
      "whole.duckdb",
      "",
      /it is damaged \(cut short or overwritten\): DuckDB cannot read it\nhint: restore it/,
    ]);
    for (const [name, bytes, message] of cases) {
      const path = join(dir, name);
      if (name !== "whole.duckdb") writeFileSync(path, bytes);
      const result = await run([...RANGE, "-o", `duckdb:${name}`]);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toMatch(new RegExp(`^adreport: cannot write ${name.replace(".", "\\.")}: `));
      expect(result.stderr).toMatch(message);
      expect(result.stderr.split("\n").length).toBeLessThanOrEqual(3);
      expectOwnWords(result.stderr);
    }
    expect(readdirSync(dir).filter((name) => name.endsWith(".wal"))).toEqual([]);
  });

  it("a device, a FIFO, a folder: refused as for sqlite:, nothing left beside them; a missing folder: the mkdir", async () => {
    const { dir, run } = await newService();
    mkdirSync(join(dir, "folder"));
    execFileSync("mkfifo", [join(dir, "pipe.duckdb")]);
    for (const path of ["/dev/null", join(dir, "folder"), join(dir, "pipe.duckdb")]) {
      const result = await run([...RANGE, "-o", `duckdb:${path}`]);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(`adreport: cannot write ${path}: not a regular file (a database file is needed)\n`);
    }
    expect(existsSync("/dev/null.wal")).toBe(false);
    const missing = await run([...RANGE, "-o", "duckdb:no/such/ads.duckdb"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      "adreport: cannot write no/such/ads.duckdb: no such folder\nhint: create it first: mkdir -p no/such\n",
    );
    expect(existsSync(join(dir, "no"))).toBe(false);
  });

  it("a path with a ? in it: refused before any request (DuckDB puts its .wal at the ?: what?/ads.wal... for what?/ads.duckdb)", async () => {
    const { dir, run } = await newService();
    mkdirSync(join(dir, "what?"));
    for (const given of ["what?/ads.duckdb", "ads?.duckdb"]) {
      const result = await run([...RANGE, "-o", `duckdb:${given}`, "-v"]);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toMatch(
        new RegExp(
          `^adreport: cannot write ${given.replace(/[?.]/g, "\\$&")}: DuckDB cannot keep a database whose path has a \\? in it`,
          "m",
        ),
      );
      expect(result.stderr).not.toMatch(/GET /);
      expectOwnWords(result.stderr);
    }
    expect(readdirSync(join(dir, "what?"))).toEqual([]);
  });
});

describe("duckdb: a table the run cannot fill", () => {
  /** Exit 2 before any request (`-v` names every request), naming the table; the file as it was. */
  async function expectRefused(args: string[], message: RegExp, setUp: string[]) {
    const { run, path } = await newService();
    expect((await run([...RANGE, "-o", "duckdb:ads.duckdb"])).code).toBe(0);
    await duckdbExec(path, ...setUp);
    const tables = "SELECT table_name, column_name, data_type FROM duckdb_columns() ORDER BY ALL";
    const before = await duckdbRows(path, tables);
    const result = await run([...args, "-o", "duckdb:ads.duckdb", "-v"]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/GET /);
    expectOwnWords(result.stderr);
    expect(await duckdbRows(path, tables)).toEqual(before);
  }

  it("a table not made by adreport", async () => {
    await expectRefused(
      [...RANGE, "--table", "mine"],
      /^adreport: the table mine in ads\.duckdb has no columns campaign_id, name, date, profile, query_scope, exported_at/m,
      ["CREATE TABLE mine (a INTEGER)", "INSERT INTO mine VALUES (1)"],
    );
  });

  it("an adreport_loads that is not adreport's", async () => {
    await expectRefused(
      [...RANGE],
      /^adreport: the table adreport_loads beside the table adreport_campaign_date in ads\.duckdb is not adreport's: it has no column sums/m,
      ["ALTER TABLE adreport_loads RENAME COLUMN sums TO totals"],
    );
  });

  it("a view under the table's name: the statement that frees it", async () => {
    await expectRefused(
      [...RANGE, "--table", "daily"],
      /^adreport: cannot create the table daily in ads\.duckdb: a view there already has that name\nhint: choose another --table, or rename it: ALTER VIEW "daily" RENAME TO "daily_old"$/m,
      [`CREATE VIEW daily AS SELECT * FROM ${TABLE}`],
    );
  });

  it("a column of a type that cannot hold the values, and fewer metrics than the table keeps", async () => {
    await expectRefused(
      [...RANGE, "--table", "narrow"],
      /^adreport: the table narrow in ads\.duckdb has the column views of type INTEGER, which cannot hold counts \(whole numbers up to 2\^53\): adreport makes it BIGINT/m,
      [`CREATE TABLE narrow AS SELECT * FROM ${TABLE}`, "ALTER TABLE narrow ALTER views TYPE INTEGER"],
    );
    await expectRefused(
      [...RANGE, "--metrics", "views,spending"],
      /has the metric columns clicks, conversions, which --metrics does not list/,
      [],
    );
  });

  it("more metrics: the column is added and said; every row of the run carries its run id", async () => {
    const { run, path } = await newService();
    expect((await run([...RANGE, "--metrics", "views,spending", "-o", "duckdb:ads.duckdb"])).code).toBe(0);
    const more = await run([...RANGE, "--metrics", "views,spending,clicks", "-o", "duckdb:ads.duckdb"]);
    expect(more.code, more.stderr).toBe(0);
    expect(more.stderr).toMatch(
      /^adreport: added the column clicks to the table adreport_campaign_date in ads\.duckdb/m,
    );
    const [[nulls, runs]] = (await duckdbRows(
      path,
      `SELECT count(*) FILTER (WHERE clicks IS NULL), count(DISTINCT run_id) FROM ${TABLE}`,
    )) as [[bigint, bigint]];
    expect(nulls).toBe(0n);
    expect(runs).toBe(1n);
  });
});

describe("duckdb: table names DuckDB reads without regard to case, or as keywords", () => {
  it("--table Select and --table MixedCase: found again on the next run, the rows once", async () => {
    const { run, path } = await newService();
    expect((await run([...RANGE, "-o", "duckdb:ads.duckdb", "--table", "once"])).code).toBe(0);
    for (const table of ["Select", "MixedCase"]) {
      for (let i = 0; i < 2; i += 1) {
        const result = await run([...RANGE, "-o", "duckdb:ads.duckdb", "--table", table]);
        expect(result.code, result.stderr).toBe(0);
      }
    }
    const [[once, keyword, mixed]] = (await duckdbRows(
      path,
      `SELECT (SELECT count(*) FROM once), (SELECT count(*) FROM "Select"), (SELECT count(*) FROM mixedcase)`,
    )) as [[bigint, bigint, bigint]];
    expect(once).toBeGreaterThan(0n);
    expect([keyword, mixed]).toEqual([once, once]);
  });
});

describe("duckdb: adreport's own tables under another case", () => {
  it("--table ADREPORT_LOADS and --table Adreport_Jobs are those tables to DuckDB: refused before any request", async () => {
    const { run, path } = await newService();
    expect((await run([...RANGE, "-o", "duckdb:ads.duckdb"])).code).toBe(0);
    const tables = "SELECT table_name, column_name, data_type FROM duckdb_columns() ORDER BY ALL";
    const before = await duckdbRows(path, tables);
    for (const [table, what] of [
      ["ADREPORT_LOADS", "records every run's days"],
      ["Adreport_Jobs", "keeps the state of its jobs"],
    ]) {
      const result = await run([...RANGE, "-o", "duckdb:ads.duckdb", "--table", table as string, "-v"]);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(
        new RegExp(`^adreport: --table ${table}: that table is where adreport ${what}`, "m"),
      );
      expect(result.stderr).not.toMatch(/GET /);
      expectOwnWords(result.stderr);
    }
    expect(await duckdbRows(path, tables)).toEqual(before);
  });
});

describe("duckdb: several accounts and --dry-run", () => {
  it("--profiles a,b fill one table, each account its own rows; --dry-run names the table and writes nothing", async () => {
    const service = await startTestService({
      demo: SMALL_DEMO,
      keys: ["Acme Outdoor", "Globex, Inc."].map((advertiser) => ({ advertiser, ips: ["127.0.0.1"] })),
    });
    const ok = (key: string | undefined) => ({ "api-key": key, "base-url": service.url });
    const config = configDirWith({}, { a: ok(service.keys[0]), b: ok(service.keys[1]) });
    const dir = tempDir();
    const args = [
      "report",
      "--profiles",
      "a,b",
      "--dims",
      "campaign,date",
      "--from",
      "2026-10-01",
      "--to",
      "2026-10-05",
    ];
    const run = (extra: string[]) =>
      runInProcess([...args, "-o", "duckdb:accounts.duckdb", ...extra], {
        env: { ADREPORT_CONFIG_DIR: config, TMPDIR: tempDir("adreport-spool-") },
        now: NOW,
        cwd: dir,
      });
    const dry = await run(["--dry-run"]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/output: {3}table adreport_campaign_date in duckdb:accounts\.duckdb/);
    expect(existsSync(join(dir, "accounts.duckdb"))).toBe(false);
    const result = await run(["-q"]);
    expect(result.code, result.stderr).toBe(0);
    const path = join(dir, "accounts.duckdb");
    const profiles = await duckdbRows(
      path,
      `SELECT profile, count(*) > 0 FROM ${TABLE} GROUP BY profile ORDER BY profile`,
    );
    expect(profiles).toEqual([
      ["a", true],
      ["b", true],
    ]);
    // Again: each account replaces its own rows only.
    const counts = await duckdbRows(path, `SELECT profile, count(*) FROM ${TABLE} GROUP BY profile ORDER BY profile`);
    expect((await run(["-q"])).code).toBe(0);
    expect(await duckdbRows(path, `SELECT profile, count(*) FROM ${TABLE} GROUP BY profile ORDER BY profile`)).toEqual(
      counts,
    );
  });
});
