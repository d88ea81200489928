/**
 * Whole-day targets used the way real cron jobs and hostile set-ups use them: a mixed-case PostgreSQL
 * table, several accounts creating one new table at once, a PostgreSQL server that never answers,
 * month and week buckets into a table run twice, a state file that is corrupt.
 */
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { configDirWith } from "../../helpers/config";
import { startDemoService } from "../../helpers/demo-service";
import { startFakeService } from "../../helpers/fake-service";
import { usePostgres } from "../../helpers/postgres";
import { runInProcess } from "../../helpers/run-cli-in-process";
import { SMALL_DEMO, serveDatabase, startTestService } from "../../helpers/serve";
import { tempDir } from "../../helpers/temp";

const postgres = usePostgres();
const NOW = new Date("2026-11-20T06:00:00Z");

async function newService() {
  const { dir, run } = await startDemoService({ now: NOW });
  return { dir, run: (args: string[], now = NOW) => run(args, now) };
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

const RANGE = ["--dims", "campaign,date", "--from", "2026-10-25", "--to", "2026-10-27"];

describe("postgres targets", () => {
  it("a mixed-case --table is found again on the next run (it was created a second time: exit 1)", async (context) => {
    const url = await postgres.database(context);
    const { run } = await newService();
    for (let i = 0; i < 2; i += 1) {
      const result = await run(["report", ...RANGE, "-o", url, "--table", "MyTable"]);
      expect(result.code, result.stderr).toBe(0);
    }
    const rows = await query(url, 'SELECT count(*)::int AS n FROM "MyTable"');
    const plain = await run(["report", ...RANGE, "-f", "ndjson"]);
    expect(rows).toEqual([{ n: plain.stdout.trim().split("\n").length }]);
  });

  it("--all-profiles into a new table: every account fills it (the second failed creating it too)", async (context) => {
    const url = await postgres.database(context);
    const service = await startTestService({
      demo: { ...SMALL_DEMO, advertisers: 3 },
      keys: [
        { advertiser: "Acme Outdoor", ips: ["127.0.0.1"] },
        { advertiser: "Globex, Inc.", ips: ["127.0.0.1"] },
      ],
    });
    const config = configDirWith(
      {},
      {
        acme: { "api-key": service.keys[0] as string, "base-url": service.url },
        globex: { "api-key": service.keys[1] as string, "base-url": service.url },
      },
    );
    const result = await runInProcess(
      ["report", "--all-profiles", "--dims", "campaign,date", "--from", "2026-10-01", "--to", "2026-10-31", "-o", url],
      { now: NOW, env: { ADREPORT_CONFIG_DIR: config, TMPDIR: tempDir("adreport-spool-") } },
    );
    expect(result.code, result.stderr).toBe(0);
    const profiles = await query(url, "SELECT DISTINCT profile FROM adreport_campaign_date ORDER BY 1");
    expect(profiles).toEqual([{ profile: "acme" }, { profile: "globex" }]);
  });

  it("a server that accepts and never answers: --timeout ends the connection attempt, the password unsaid", async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", () => resolve()));
    const port = (silent.address() as { port: number }).port;
    try {
      const { run } = await newService();
      const result = await run([
        "report",
        ...RANGE,
        "-o",
        `postgres://u:sekret@127.0.0.1:${port}/db`,
        "--timeout",
        "1s",
      ]);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toMatch(/^adreport: cannot write postgres:\/\/u@127\.0\.0\.1:\d+\/db: .*timeout/m);
      expect(result.stderr).not.toContain("sekret");
    } finally {
      silent.close();
    }
  }, 15_000);
});

describe("two runs of the same days into one PostgreSQL table at once", () => {
  it("hold the rows once (the second's delete missed the first's rows: doubled)", async (context) => {
    const url = await postgres.database(context);
    const { service, run } = await startDemoService({ now: NOW });
    const slow = await serveDatabase(service.dbPath, { faults: "delay:150ms" });
    const args = ["report", ...RANGE, "-o", url, "--page-size", "1", "--concurrency", "1"];
    const before = await run(args);
    expect(before.code, before.stderr).toBe(0);
    const first = run(args, NOW, { ADREPORT_BASE_URL: slow.url });
    // The second starts while the first has deleted the days and is still inserting them (a session of this
    // database: other test files' runs use the same cluster at the same time).
    for (;;) {
      const open = await query(
        url,
        "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'adreport' AND xact_start IS NOT NULL",
      );
      if (open.length > 0) break;
    }
    const second = await run(args);
    const done = await first;
    expect(done.code, done.stderr).toBe(0);
    expect(second.code, second.stderr).toBe(0);
    const plain = await run(["report", ...RANGE, "-f", "ndjson"]);
    const rows = await query(url, "SELECT count(*)::int AS n FROM adreport_campaign_date");
    expect(rows).toEqual([{ n: plain.stdout.trim().split("\n").length }]);
    await slow.server.close();
  });
});

describe("SIGTERM or --max-time while PostgreSQL keeps the run waiting", () => {
  it("exit 130 (SIGTERM) or 5 (--max-time) at once, the table as it was (the run waited for the other transaction to end)", async (context) => {
    const url = await postgres.database(context);
    const { run, start } = await startDemoService({ now: NOW });
    const args = ["report", ...RANGE, "-o", url];
    const first = await run(args);
    expect(first.code, first.stderr).toBe(0);
    // Another session holds the rows' days: a BI tool's long transaction, or a run on another host.
    const blocker = new pg.Client({ connectionString: url });
    await blocker.connect();
    try {
      await blocker.query("BEGIN");
      await blocker.query("DELETE FROM adreport_campaign_date");
      const running = start(args);
      // This database's run: another test file's may be waiting on a lock of its own on the same cluster.
      for (;;) {
        const waiting = await query(
          url,
          "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'adreport' AND wait_event_type = 'Lock'",
        );
        if (waiting.length > 0) break;
      }
      running.signal("SIGTERM");
      const result = await running.result;
      expect(result.code, result.stderr).toBe(130);
      const limited = await run([...args, "--max-time", "1s"]);
      expect(limited.code, limited.stderr).toBe(5);
      expect(result.stderr).toMatch(
        /^adreport: interrupted; the table adreport_campaign_date in .* was left as it was$/m,
      );
    } finally {
      await blocker.query("ROLLBACK");
      await blocker.end();
    }
    const plain = await run(["report", ...RANGE, "-f", "ndjson"]);
    const rows = await query(url, "SELECT count(*)::int AS n FROM adreport_campaign_date");
    expect(rows).toEqual([{ n: plain.stdout.trim().split("\n").length }]);
  }, 20_000);
});

describe("a password in the query of a postgres URL", () => {
  it("is in no message, state file or state list (?password= was printed and kept)", async (context) => {
    const url = new URL(await postgres.database(context));
    url.searchParams.set("password", "sekret1");
    url.searchParams.set("sslpassword", "sekret2");
    const { dir, run } = await newService();
    const first = await run([
      "report",
      "--dims",
      "campaign,date",
      "--incremental",
      "--start",
      "2026-11-18",
      "-o",
      url.toString(),
    ]);
    expect(first.code, first.stderr).toBe(0);
    const list = await run(["state", "list"]);
    expect(list.stdout).toContain("#adreport_campaign_date");
    const denied = new URL(url);
    denied.username = "nobody";
    const failed = await run(["report", ...RANGE, "-o", denied.toString(), "--summary", "json"]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/^adreport: cannot write postgres:\/\/nobody@/m);
    const states = join(dir, "config", "state");
    const kept = readdirSync(states).map((name) => readFileSync(join(states, name), "utf8"));
    for (const text of [first.stderr, list.stdout, failed.stderr, ...kept]) expect(text).not.toMatch(/sekret/);
  });
});

describe("sqlite targets, week and month buckets", () => {
  it.each(["month", "week"])(
    "--granularity %s from mid-bucket, run twice: the same rows (were doubled)",
    async (unit) => {
      const { dir, run } = await newService();
      const args = [
        "report",
        "--dims",
        "campaign,date",
        "--granularity",
        unit,
        "--from",
        "2026-10-15",
        "--to",
        "2026-10-28",
      ];
      const output = ["-o", "sqlite:ads.db"];
      const plain = await run([...args, "-f", "ndjson"]);
      expect(plain.code, plain.stderr).toBe(0);
      for (let i = 0; i < 2; i += 1) {
        const result = await run([...args, ...output]);
        expect(result.code, result.stderr).toBe(0);
      }
      const db = new Database(join(dir, "ads.db"), { readonly: true });
      try {
        const rows = db.prepare("SELECT count(*) AS n FROM adreport_campaign_date").get();
        expect(rows).toEqual({ n: plain.stdout.trim().split("\n").length });
      } finally {
        db.close();
      }
    },
  );
});

describe("a corrupt state file", () => {
  it("state list still lists the other jobs and names it; state reset JOB removes it, as the hint says", async () => {
    const { dir, run } = await newService();
    for (const output of ["a/{date}.csv", "b/{date}.csv"]) {
      mkdirSync(join(dir, output.slice(0, 1)));
      const first = await run([
        "report",
        "--dims",
        "campaign,date",
        "--incremental",
        "--start",
        "2026-11-17",
        "-o",
        output,
      ]);
      expect(first.code, first.stderr).toBe(0);
    }
    const list = await run(["state", "list", "--json"]);
    const jobs = list.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { job: string; output: string });
    const ids = jobs.sort((x, y) => (x.output < y.output ? -1 : 1)).map((job) => job.job);
    expect(ids).toHaveLength(2);
    const broken = ids[0] as string;
    writeFileSync(join(dir, "config", "state", `${broken}.json`), '{"version":1,');

    const refused = await run(["report", "--dims", "campaign,date", "--incremental", "-o", "a/{date}.csv"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("adreport state reset");

    const after = await run(["state", "list"]);
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).toContain(ids[1]);
    expect(after.stderr).toMatch(new RegExp(`^adreport: warning: .*${broken}\\.json`, "m"));

    const reset = await run(["state", "reset", broken]);
    expect(reset.code, reset.stderr).toBe(0);
    const list2 = await run(["state", "list"]);
    expect(list2.stderr).toBe("");
  });
});

describe("--state-file on a shared volume", () => {
  it("a lock held by a run on another host is not taken over, whatever its pid here (was: two writers)", async () => {
    const { dir, run } = await newService();
    mkdirSync(join(dir, "out"));
    mkdirSync(join(dir, "shared"));
    const cron = [
      "report",
      "--dims",
      "campaign,date",
      "--incremental",
      "--start",
      "2026-11-17",
      "-o",
      "out/{date}.csv",
    ];
    const state = ["--state-file", "shared/job.json"];
    // A pid that runs nowhere here, written by the other host's run.
    writeFileSync(join(dir, "shared", "job.lock"), "2147483646\nother-host\n");
    const refused = await run([...cron, ...state]);
    expect(refused.code, refused.stderr).toBe(75);
    expect(refused.stderr).toMatch(
      /^adreport: another run of this job \(\w+\) is under way: pid 2147483646 on "other-host" holds /m,
    );
    expect(readdirSync(join(dir, "out"))).toEqual([]);
    // A dead pid of this host is stale: taken over.
    writeFileSync(join(dir, "shared", "job.lock"), "2147483646\n");
    const taken = await run([...cron, ...state]);
    expect(taken.code, taken.stderr).toBe(0);
  });
});

describe("--summary-file that cannot be written", () => {
  it.each([
    ["a {date} run", ["--dims", "campaign,date", "--from", "2026-11-17", "--to", "2026-11-18", "-o", "out/{date}.csv"]],
    ["an ordinary export", ["--dims", "campaign", "--from", "2026-11-17", "--to", "2026-11-18", "-o", "out/a.csv"]],
  ])("%s: /dev/full is 'cannot write', exit 1 (was 'unexpected error')", async (_name, args) => {
    const { dir, run } = await newService();
    mkdirSync(join(dir, "out"));
    const result = await run(["report", ...args, "--summary-file", "/dev/full"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("adreport: cannot write /dev/full: no space left on device\n");
  });

  it("over several accounts: the same", async () => {
    const service = await startTestService({ keys: [{ advertiser: "Acme Outdoor", ips: ["127.0.0.1"] }] });
    const account = { "api-key": service.keys[0] as string, "base-url": service.url };
    const config = configDirWith({}, { acme: account, again: account });
    const result = await runInProcess(
      ["report", "--all-profiles", "--dims", "campaign", "--from", "2026-10-01", "--to", "2026-10-02", "-q"],
      { now: NOW, env: { ADREPORT_CONFIG_DIR: config, TMPDIR: tempDir("adreport-spool-") } },
    );
    expect(result.code, result.stderr).toBe(0);
    const full = await runInProcess(
      [
        "report",
        "--all-profiles",
        "--dims",
        "campaign",
        "--from",
        "2026-10-01",
        "--to",
        "2026-10-02",
        "-q",
        "--summary-file",
        "/dev/full",
      ],
      { now: NOW, env: { ADREPORT_CONFIG_DIR: config, TMPDIR: tempDir("adreport-spool-") } },
    );
    expect(full.code).toBe(1);
    expect(full.stderr).toBe("adreport: cannot write /dev/full: no space left on device\n");
  });
});

describe("a service that sends a row dated outside the days asked for", () => {
  it("into a table: the run fails and the table is left as it was (the row was kept, and doubled by the next run)", async () => {
    const outside = {
      dimensions: { campaign_id: 1, name: "Early", date: Date.UTC(2026, 9, 20) / 1000 },
      metrics: { views: 10, spending: 1.5, clicks: 1, conversions: 0 },
    };
    const inside = { ...outside, dimensions: { ...outside.dimensions, date: Date.UTC(2026, 9, 25) / 1000 } };
    const service = await startFakeService({ rows: 2, rowsOf: () => [inside, outside] });
    const dir = tempDir();
    const env = {
      ADREPORT_CONFIG_DIR: join(dir, "config"),
      ADREPORT_API_KEY: "k".repeat(32),
      ADREPORT_BASE_URL: service.url,
    };
    for (let i = 0; i < 2; i += 1) {
      const result = await runInProcess(["report", ...RANGE, "-o", "sqlite:ads.db", "--retries", "0"], {
        env,
        now: NOW,
        cwd: dir,
      });
      expect(result.code).toBe(5);
      expect(result.stderr).toMatch(/^adreport: the service sent a row dated 2026-10-20, outside the days asked for/m);
    }
    await service.close();
  });
});

describe("a time zone from the environment", () => {
  it("with {date}: a warning that the files keep UTC days (ADREPORT_TZ was dropped without a word)", async () => {
    const { run } = await startDemoService({ now: NOW });
    const result = await run(["report", ...RANGE, "-o", "{date}.csv"], NOW, { ADREPORT_TZ: "Asia/Tokyo" });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(
      /^adreport: warning: the time zone "Asia\/Tokyo" \(environment\) is not used: \{date\} in --output keeps the service's UTC days$/m,
    );
  });

  it("a profile's tz: a {date} cron run stays quiet (no warning each run); --dry-run's range says it is not used", async () => {
    const { service, dir, run } = await startDemoService({ now: NOW });
    const config = configDirWith(
      {},
      { tokyo: { "api-key": service.keys[0], "base-url": service.url, tz: "Asia/Tokyo" } },
    );
    const env = { ADREPORT_CONFIG_DIR: config, ADREPORT_API_KEY: undefined, ADREPORT_BASE_URL: undefined };
    const cron = ["report", "--profile", "tokyo", "--incremental", "--start", "2026-10-25", "--dims", "campaign,date"];
    mkdirSync(join(dir, "tokyo"));
    const dry = await run([...cron, "-o", "tokyo/{date}.csv", "--dry-run"], NOW, env);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toBe("");
    expect(dry.stdout).toMatch(
      /^range: {4}2026-10-25\.\.2026-11-19 \(UTC; Asia\/Tokyo \(profile\) is not used; from --start 2026-10-25, a first run\)$/m,
    );
    for (const now of [NOW, new Date("2026-11-21T06:00:00Z")]) {
      const result = await run([...cron, "-q", "-o", "tokyo/{date}.csv"], now, env);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toBe("");
    }
    expect(readdirSync(join(dir, "tokyo"))).toContain("2026-11-20.csv");
  });
});

describe("{date} files named .html", () => {
  it("are refused like --format html (exit 2, no request), not written as pages", async () => {
    const { dir, run } = await newService();
    const result = await run(["report", ...RANGE, "-o", "{date}.html"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^adreport: --format html cannot be used with \{date\} in --output/m);
    expect(readdirSync(dir).filter((name) => name.endsWith(".html"))).toEqual([]);
  });
});

describe("a state file others can change", () => {
  it("group- or world-writable, or another user's: refused (exit 2); it was used", async () => {
    const { dir, run } = await newService();
    mkdirSync(join(dir, "out"));
    const cron = [
      "report",
      "--dims",
      "campaign,date",
      "--incremental",
      "-o",
      "out/{date}.csv",
      "--state-file",
      "job.json",
    ];
    const first = await run([...cron, "--start", "2026-11-17"]);
    expect(first.code, first.stderr).toBe(0);
    chmodSync(join(dir, "job.json"), 0o666);
    const writable = await run(cron);
    expect(writable.code).toBe(2);
    expect(writable.stderr).toMatch(/^adreport: the state file .*job\.json is mode 0666: others can change it$/m);
    chmodSync(join(dir, "job.json"), 0o600);
    expect((await run(cron)).code).toBe(0);
    if (process.getuid?.() === 0) {
      chownSync(join(dir, "job.json"), 65534, 65534);
      const foreign = await run(cron);
      expect(foreign.code).toBe(2);
      expect(foreign.stderr).toMatch(
        /^adreport: the state file .*job\.json belongs to uid 65534, not to you \(uid 0\)$/m,
      );
    }
  });
});

describe("sqlite: a device or a folder", () => {
  it("is refused, exit 1, and nothing is left beside it (SQLite left /dev/full-journal)", async () => {
    const { dir, run } = await newService();
    mkdirSync(join(dir, "folder"));
    for (const path of ["/dev/full", join(dir, "folder")]) {
      const result = await run(["report", ...RANGE, "-o", `sqlite:${path}`]);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(`adreport: cannot write ${path}: not a regular file (a database file is needed)\n`);
    }
    expect(existsSync("/dev/full-journal")).toBe(false);
    expect(readdirSync(dir).filter((name) => name.startsWith("folder"))).toEqual(["folder"]);
  });
});
