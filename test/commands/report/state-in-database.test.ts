/**
 * A job's state beside its data (adreport_jobs in the target's database), with "hosts" that are separate
 * processes of the built CLI sharing nothing but the service and the database: each its own HOME,
 * XDG_CONFIG_HOME and TMPDIR, the key and URL from the environment (a fresh container). A fresh container
 * makes the requests a host that kept its files makes and ends in the same table; a job kept only in files
 * is written to its database once; a lock held by another host is refused (exit 75) naming it, and let go
 * when that host is killed -9; a state table altered by hand is refused (exit 2); a role that may not create
 * it is told the grants; PostgreSQL going away mid-run is exit 5, and the next run continues.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { startDemoService } from "../../helpers/demo-service";
import { queryPostgres, usePostgres } from "../../helpers/postgres";
import { type CliResult, cliCommand, environment, runCli } from "../../helpers/spawn-cli";
import { tempDir } from "../../helpers/temp";

const postgres = usePostgres();
const JOB = ["report", "--dims", "campaign,date", "--incremental", "--lookback", "5d", "-q"];
const START = ["--start", "2026-10-01"];

/** A host of its own: an empty HOME, config folder and temp folder; the key and URL from the environment. */
function newHost(service: { url: string; key: string }, extra: Record<string, string> = {}) {
  const home = tempDir("adreport-host-");
  for (const sub of [".config", "tmp"]) mkdirSync(join(home, sub));
  const env = {
    ...extra,
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    TMPDIR: join(home, "tmp"),
    ADREPORT_API_KEY: service.key,
    ADREPORT_BASE_URL: service.url,
  };
  return {
    home,
    stateFolder: join(home, ".config", "adreport", "state"),
    run: (args: string[]): Promise<CliResult> => runCli(args, { env, cwd: home }),
    start(args: string[]): ChildProcess & { output: Promise<CliResult> } {
      const [cmd, argv] = cliCommand(args);
      const child = spawn(cmd, argv, { cwd: home, env: environment(env), stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout?.setEncoding("utf8").on("data", (c: string) => {
        stdout += c;
      });
      child.stderr?.setEncoding("utf8").on("data", (c: string) => {
        stderr += c;
      });
      const output = new Promise<CliResult>((resolve) => {
        child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
      });
      return Object.assign(child, { output });
    },
  };
}

async function waitFor(what: string, check: () => Promise<boolean> | boolean, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface Engine {
  output(context: { skip(note?: string): never }): Promise<string>;
  rows(output: string): Promise<unknown[]>;
  sql(output: string, text: string): Promise<Array<Record<string, unknown>>>;
}

const sqlite: Engine = {
  output: async () => `sqlite:${join(tempDir(), "ads.db")}`,
  async rows(output) {
    return sqlite.sql(
      output,
      'SELECT campaign_id, "date", views, spending, clicks FROM adreport_campaign_date ORDER BY 1, 2',
    );
  },
  async sql(output, text) {
    const db = new Database(output.slice("sqlite:".length));
    try {
      const statement = db.prepare(text);
      if (statement.reader) return statement.all() as Array<Record<string, unknown>>;
      statement.run();
      return [];
    } finally {
      db.close();
    }
  },
};

const pg: Engine = {
  output: (context) => postgres.database(context),
  async rows(output) {
    return pg.sql(
      output,
      `SELECT campaign_id::int, to_char("date", 'YYYY-MM-DD') AS day, views::int, spending::text, clicks::int FROM adreport_campaign_date ORDER BY 1, 2`,
    );
  },
  sql: (output, text) => queryPostgres(output, text),
};

describe.each([
  ["sqlite", sqlite],
  ["postgres", pg],
] as const)("a job's state in its %s database", (_name, engine) => {
  it("a fresh container makes the requests a host that kept its files makes (+0), and ends in the same table", async (context) => {
    const output = await engine.output(context);
    const again = await engine.output(context);
    const { service, key } = await startDemoService();
    const log = service.accessLog;
    const kept = newHost({ url: service.url, key });
    // One host that keeps its files, twice.
    expect((await kept.run([...JOB, ...START, "-o", output])).code).toBe(0);
    let before = log.length;
    const second = await kept.run([...JOB, "-o", output]);
    expect(second.code, second.stderr).toBe(0);
    const keptRequests = log.length - before;
    // The same job into another database from two fresh containers, one after the other.
    const first = await newHost({ url: service.url, key }).run([...JOB, ...START, "-o", again]);
    expect(first.code, first.stderr).toBe(0);
    before = log.length;
    const fresh = await newHost({ url: service.url, key }).run([...JOB, "-o", again, "--summary", "json"]);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(log.length - before).toBe(keptRequests);
    const summary = JSON.parse(fresh.stderr.trim().split("\n").pop() as string);
    expect(summary).toMatchObject({ outcome: "ok", from: expect.any(String) });
    expect(await engine.rows(again)).toEqual(await engine.rows(output));
    // Without --start: the container found the job's last day in the database (no "--start" asked for).
    expect(fresh.stderr).not.toMatch(/--start/);
    // state list in a fresh container: the database named; the host that ran it knows its database.
    const listed = await newHost({ url: service.url, key }).run([
      "state",
      "list",
      "--format",
      "json",
      "--target",
      again,
    ]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toHaveLength(1);
    const known = await kept.run(["state", "list", "--format", "json"]);
    expect(JSON.parse(known.stdout)).toHaveLength(1);
  }, 60_000);

  it("a job kept only in files by an earlier adreport is written to its database once, with a note", async (context) => {
    const output = await engine.output(context);
    const { service, key } = await startDemoService();
    const host = newHost({ url: service.url, key });
    expect((await host.run([...JOB, ...START, "-o", output])).code).toBe(0);
    // As an earlier adreport left it: no adreport_jobs; the state in the host's files.
    await engine.sql(output, "DROP TABLE adreport_jobs");
    const next = await host.run([...JOB, "-o", output]);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toMatch(
      /^adreport: job [0-9a-f]{8}: its state is now kept in the table adreport_jobs in .* too \(from .*\.json, which stays as this host's copy\)$/m,
    );
    const again = await host.run([...JOB, "-o", output]);
    expect(again.stderr).not.toMatch(/is now kept/);
    const rows = await engine.sql(output, "SELECT id, state IS NOT NULL AS kept FROM adreport_jobs");
    expect(rows).toHaveLength(1);
    expect(Boolean(rows[0]?.kept)).toBe(true);
    // A fresh container continues from it.
    const fresh = await newHost({ url: service.url, key }).run([...JOB, "-o", output, "--dry-run"]);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.stdout).not.toMatch(/--start/);
  }, 60_000);

  it("state show, verify and state reset from a fresh container that names the database", async (context) => {
    const output = await engine.output(context);
    const { service, key } = await startDemoService();
    expect((await newHost({ url: service.url, key }).run([...JOB, ...START, "-o", output])).code).toBe(0);
    const container = newHost({ url: service.url, key });
    const listed = await container.run(["state", "list", "--format", "json", "--target", output]);
    const id = (JSON.parse(listed.stdout) as Array<{ job: string }>)[0]?.job as string;
    expect(id).toMatch(/^[0-9a-f]{8}$/);
    const unnamed = await container.run(["state", "show", id]);
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toMatch(/--target/);
    const shown = await container.run(["state", "show", id, "--target", output]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ id, last_run: { outcome: "ok" } });
    for (const args of [["status", id], ["status"]]) {
      const status = await container.run([...args, "--format", "json", "--target", output]);
      expect(status.code, status.stderr).toBe(0);
      expect(JSON.parse(status.stdout)).toMatchObject({ jobs: [{ job: id, last_run: { outcome: "ok" } }] });
    }
    const verified = await container.run(["verify", id, "--db", output]);
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.stderr).toMatch(/every one matches/);
    const rows = await engine.rows(output);
    await engine.sql(output, `DELETE FROM adreport_campaign_date WHERE "date" = '2026-10-05'`);
    const repaired = await newHost({ url: service.url, key }).run(["verify", id, "--db", output, "--repair", "-q"]);
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(repaired.stderr).toMatch(/1 repaired/);
    expect(await engine.rows(output)).toEqual(rows);
    const reset = await container.run(["state", "reset", id, "--target", output]);
    expect(reset.code, reset.stderr).toBe(0);
    expect(await engine.sql(output, "SELECT id FROM adreport_jobs WHERE state IS NOT NULL")).toEqual([]);
  }, 60_000);

  const edits: Array<[string, (state: object) => object]> = [
    ["not in adreport's shape", () => ({ version: 1 })],
    ["a last day that is no date", (state) => ({ ...state, lastDay: "2099-13-45" })],
  ];
  for (const [what, edited] of edits)
    it(`a row edited by hand into a state ${what}: its hint, run as printed from a fresh container, forgets it`, async (context) => {
      const output = await engine.output(context);
      const { service, key } = await startDemoService();
      expect((await newHost({ url: service.url, key }).run([...JOB, ...START, "-o", output])).code).toBe(0);
      const [{ state }] = (await engine.sql(output, "SELECT state FROM adreport_jobs")) as [{ state: unknown }];
      const value = JSON.stringify(edited(typeof state === "string" ? JSON.parse(state) : (state as object)));
      await engine.sql(output, `UPDATE adreport_jobs SET state = '${value.replaceAll("'", "''")}'`);
      const container = newHost({ url: service.url, key });
      const refused = await container.run([...JOB, ...START, "-o", output]);
      expect(refused.code, refused.stderr).toBe(2);
      const hint = /^hint: .*adreport (state reset \S+ --target \S+)/m.exec(refused.stderr);
      expect(hint, refused.stderr).not.toBeNull();
      const reset = await newHost({ url: service.url, key }).run(String(hint?.[1]).split(" "));
      expect(reset.code, reset.stderr).toBe(0);
      expect(reset.stderr).toMatch(/forgotten/);
      expect(await engine.sql(output, "SELECT id FROM adreport_jobs WHERE state IS NOT NULL")).toEqual([]);
      const again = await container.run([...JOB, ...START, "-o", output]);
      expect(again.code, again.stderr).toBe(0);
    }, 60_000);

  it("another job starting on a job's table in a fresh container: refused, and its hint, run as printed there, forgets the owner", async (context) => {
    const output = await engine.output(context);
    const { service, key } = await startDemoService();
    expect((await newHost({ url: service.url, key }).run([...JOB, ...START, "-o", output])).code).toBe(0);
    const container = newHost({ url: service.url, key });
    const other = [...JOB, ...START, "--campaign", "1", "-o", output];
    const refused = await container.run(other);
    expect(refused.code, refused.stderr).toBe(2);
    const hint =
      /^hint: if job [0-9a-f]{8} is done with it, forget it first: adreport (state reset .*?) \(this job/m.exec(
        refused.stderr,
      );
    expect(hint, refused.stderr).not.toBeNull();
    const reset = await container.run(String(hint?.[1]).split(" "));
    expect(reset.code, reset.stderr).toBe(0);
  }, 60_000);

  it("a state table altered by hand: refused, exit 2, the data and the table as they were, no request", async (context) => {
    const output = await engine.output(context);
    const { service, key } = await startDemoService();
    const host = newHost({ url: service.url, key });
    expect((await host.run([...JOB, ...START, "-o", output])).code).toBe(0);
    await engine.sql(output, "ALTER TABLE adreport_jobs ADD COLUMN note TEXT");
    const rows = await engine.rows(output);
    const jobs = await engine.sql(output, "SELECT id, target, updated_at FROM adreport_jobs");
    const before = service.accessLog.length;
    for (const fresh of [host, newHost({ url: service.url, key })]) {
      const refused = await fresh.run([...JOB, "-o", output]);
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toMatch(
        /^adreport: the table adreport_jobs in .* is not as adreport makes it \(a column note text adreport does not make\)/m,
      );
      expect(refused.stderr).toMatch(/^hint: /m);
      expect(refused.stderr).not.toMatch(/\n\s+at /);
    }
    expect(service.accessLog.length).toBe(before);
    expect(await engine.rows(output)).toEqual(rows);
    expect(await engine.sql(output, "SELECT id, target, updated_at FROM adreport_jobs")).toEqual(jobs);
  }, 60_000);

  it("a lock held by another host's run: exit 75 naming it; killed -9, it lets go", async (context) => {
    const output = await engine.output(context);
    const demo = await startDemoService();
    const { service, key } = demo;
    const a = newHost({ url: service.url, key });
    const b = newHost({ url: service.url, key });
    await demo.reopen("hang:1");
    const holder = a.start([...JOB, ...START, "-o", output]);
    const holds =
      engine === pg
        ? async () =>
            (await queryPostgres(output, "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid = 1633972842"))
              .length > 0
        : () => readdirSync(join(output.slice("sqlite:".length), "..")).some((n) => n.endsWith(".lock"));
    await waitFor("the first host's lock", holds);
    const refused = await b.run([...JOB, ...START, "-o", output]);
    expect(refused.code, refused.stderr).toBe(75);
    // SQLite's lock names its holder as PostgreSQL's does (its host and since when).
    const host = `pid ${holder.pid} on "[^"]+" since \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC`;
    expect(refused.stderr).toMatch(
      new RegExp(`^adreport: another run of this job \\([0-9a-f]{8}\\) is under way: ${host} holds `, "m"),
    );
    holder.kill("SIGKILL");
    await holder.output;
    await demo.reopen();
    const after = await b.run([...JOB, ...START, "-o", output]);
    expect(after.code, after.stderr).toBe(0);
  }, 60_000);
});

/** A host of another name (a container's): its process's os.hostname() says `name`. */
function podNamed(name: string): Record<string, string> {
  const preload = join(tempDir(), "hostname.cjs");
  writeFileSync(
    preload,
    `const os = require("node:os"); os.hostname = () => ${JSON.stringify(name)}; require("node:module").syncBuiltinESMExports();\n`,
  );
  return { NODE_OPTIONS: `--require=${preload}` };
}

describe("SQLite only", () => {
  it("a run killed -9 in another container (another host name) lets go of the job's lock: the next container runs, not 75", async () => {
    const output = await sqlite.output({ skip: () => undefined as never });
    const demo = await startDemoService();
    const { service, key } = demo;
    await demo.reopen("hang:1");
    const holder = newHost({ url: service.url, key }, podNamed("pod-a")).start([...JOB, ...START, "-o", output]);
    const folder = join(output.slice("sqlite:".length), "..");
    await waitFor("the first container's lock", () => readdirSync(folder).some((n) => n.includes(".lock")));
    const refused = await newHost({ url: service.url, key }, podNamed("pod-b")).run([...JOB, ...START, "-o", output]);
    expect(refused.code, refused.stderr).toBe(75);
    expect(refused.stderr).toMatch(
      new RegExp(
        `^adreport: another run of this job \\([0-9a-f]{8}\\) is under way: pid ${holder.pid} on "pod-a" `,
        "m",
      ),
    );
    holder.kill("SIGKILL");
    await holder.output;
    await demo.reopen();
    const next = await newHost({ url: service.url, key }, podNamed("pod-b")).run([...JOB, ...START, "-o", output]);
    expect(next.code, next.stderr).toBe(0);
    const clean = await sqlite.output({ skip: () => undefined as never });
    expect((await newHost({ url: service.url, key }).run([...JOB, ...START, "-o", clean])).code).toBe(0);
    expect(await sqlite.rows(output)).toEqual(await sqlite.rows(clean));
  }, 60_000);
});

describe("SQLite's lock file written by another program", () => {
  it("a holder row with control characters and no date: refused, 75, the row's words escaped", async () => {
    const output = await sqlite.output({ skip: () => undefined as never });
    const { service, key } = await startDemoService();
    const host = newHost({ url: service.url, key });
    expect((await host.run([...JOB, ...START, "-o", output])).code).toBe(0);
    const folder = join(output.slice("sqlite:".length), "..");
    const lock = join(folder, readdirSync(folder).find((n) => n.endsWith(".lock")) as string);
    const other = new Database(lock);
    try {
      other.exec("DELETE FROM holder");
      other.prepare("INSERT INTO holder VALUES (?, ?)").run("evil\u001b[31m\nline", "not a time");
      other.exec("BEGIN IMMEDIATE");
      const refused = await host.run([...JOB, "-o", output]);
      expect(refused.code, refused.stderr).toBe(75);
      expect(refused.stderr).toContain("is under way: pid evil\\x1b[31m\\nline holds ");
      expect(refused.stderr.split("\n")).toHaveLength(3);
    } finally {
      other.close();
    }
  }, 60_000);
});

describe("PostgreSQL only", () => {
  it("a role that may not create adreport_jobs is told the grants; nothing is written", async (context) => {
    const url = await postgres.database(context);
    const role = `filler_${Math.random().toString(36).slice(2, 8)}`;
    await queryPostgres(url, `CREATE ROLE ${role} LOGIN`);
    await queryPostgres(url, "REVOKE CREATE ON SCHEMA public FROM PUBLIC");
    await queryPostgres(
      url,
      `CREATE TABLE adreport_campaign_date (campaign_id BIGINT, name TEXT, "date" DATE, views BIGINT, spending NUMERIC(20,6),
        clicks BIGINT, conversions BIGINT, profile TEXT NOT NULL, query_scope TEXT NOT NULL, exported_at TIMESTAMPTZ NOT NULL, run_id TEXT)`,
    );
    await queryPostgres(url, `GRANT SELECT, INSERT, DELETE ON adreport_campaign_date TO ${role}`);
    const { service, key } = await startDemoService();
    const before = service.accessLog.length;
    const result = await newHost({ url: service.url, key }).run([
      ...JOB,
      ...START,
      "-o",
      url.replace("postgres://adreport@", `postgres://${role}@`),
    ]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toBe(
      `adreport: cannot create the table adreport_jobs in ${url.replace("postgres://adreport@", `postgres://${role}@`)}: role ${role} may not create tables there\nhint: as the database's owner, either let it: GRANT CREATE ON SCHEMA public TO ${role}; or make the table for it (docs/incremental.md gives the statement) and: GRANT SELECT, INSERT, UPDATE, DELETE ON adreport_jobs TO ${role};\n`,
    );
    expect(service.accessLog.length).toBe(before);
    expect(await queryPostgres(url, "SELECT count(*)::int AS n FROM adreport_campaign_date")).toEqual([{ n: 0 }]);
    // Made by its owner, without grants to the role: the grants it needs.
    expect((await newHost({ url: service.url, key }).run([...JOB, ...START, "-o", url])).code).toBe(0);
    const denied = await newHost({ url: service.url, key }).run([
      ...JOB,
      "-o",
      url.replace("postgres://adreport@", `postgres://${role}@`),
    ]);
    expect(denied.code, denied.stderr).toBe(2);
    expect(denied.stderr).toMatch(
      new RegExp(
        `^adreport: cannot use the table adreport_jobs in \\S+: role ${role} may not read and write it\nhint: as its owner: GRANT SELECT, INSERT, UPDATE, DELETE ON adreport_jobs TO ${role};\n$`,
      ),
    );
  }, 60_000);

  it("PostgreSQL going away mid-run: exit 5 naming it, the windows committed kept, the next run continues", async (context) => {
    const url = await postgres.database(context);
    const clean = await postgres.database(context);
    const demo = await startDemoService();
    const { service, key } = demo;
    const host = newHost({ url: service.url, key });
    const long = [...JOB, "--start", "2026-06-01"];
    expect((await newHost({ url: service.url, key }).run([...long, "-o", clean])).code).toBe(0);
    await demo.reopen("delay:1500ms");
    const run = host.start([...long, "-o", url]);
    // The first 90-day window is in and recorded: then every session of the database is cut.
    await waitFor("the first window's checkpoint", async () => {
      const rows = await queryPostgres(url, "SELECT 1 FROM pg_class WHERE relname = 'adreport_jobs'");
      return (
        rows.length > 0 && (await queryPostgres(url, "SELECT 1 FROM adreport_jobs WHERE state IS NOT NULL")).length > 0
      );
    });
    await queryPostgres(
      url,
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
    );
    const cut = await run.output;
    expect(cut.code, cut.stderr).toBe(5);
    expect(cut.stderr).toMatch(
      /^adreport: lost (the table adreport_campaign_date|the table adreport_jobs) in postgres:\/\/\S+: /m,
    );
    expect(cut.stderr).not.toMatch(/\n\s+at /);
    const kept = await queryPostgres(url, "SELECT state->>'lastDay' AS last FROM adreport_jobs");
    expect(kept).toHaveLength(1);
    const [{ n }] = (await queryPostgres(
      url,
      `SELECT count(*)::int AS n FROM adreport_campaign_date WHERE "date" > '${kept[0]?.last as string}'::date`,
    )) as [{ n: number }];
    expect(n).toBe(0);
    await demo.reopen();
    const next = await newHost({ url: service.url, key }).run([...JOB, "-o", url]);
    expect(next.code, next.stderr).toBe(0);
    expect(await pg.rows(url)).toEqual(await pg.rows(clean));
    expect(existsSync(host.stateFolder)).toBe(true);
  }, 60_000);
});

describe("{date} files whose root holds .adreport/", () => {
  it("keep their job's state there: a container with the volume continues (+0 requests); without it, files as before", async () => {
    const { service, key } = await startDemoService();
    const volume = tempDir("adreport-volume-");
    mkdirSync(join(volume, ".adreport"));
    const files = join(volume, "{date}.csv");
    const kept = newHost({ url: service.url, key });
    expect((await kept.run([...JOB, ...START, "-o", files])).code).toBe(0);
    expect(readdirSync(join(volume, ".adreport")).filter((n) => /^[0-9a-f]{8}\.json$/.test(n))).toHaveLength(1);
    let before = service.accessLog.length;
    expect((await kept.run([...JOB, "-o", files])).code).toBe(0);
    const keptRequests = service.accessLog.length - before;
    before = service.accessLog.length;
    const fresh = await newHost({ url: service.url, key }).run([...JOB, "-o", files]);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(service.accessLog.length - before).toBe(keptRequests);
    // Without the folder: the config folder's files, as before (a fresh container has none: --start needed).
    const plain = tempDir("adreport-volume-");
    const other = newHost({ url: service.url, key });
    expect((await other.run([...JOB, ...START, "-o", join(plain, "{date}.csv")])).code).toBe(0);
    expect(existsSync(join(plain, ".adreport"))).toBe(false);
    expect(readdirSync(other.stateFolder).filter((n) => /^[0-9a-f]{8}\.json$/.test(n))).toHaveLength(1);
  }, 60_000);

  it("a pod killed -9 (another host name) lets go of the job's lock in .adreport/: the next pod continues, not 75", async () => {
    const demo = await startDemoService();
    const { service, key } = demo;
    const volume = tempDir("adreport-volume-");
    mkdirSync(join(volume, ".adreport"));
    const files = join(volume, "{date}.csv");
    await demo.reopen("hang:1");
    const holder = newHost({ url: service.url, key }, podNamed("pod-a")).start([...JOB, ...START, "-o", files]);
    await waitFor("the first pod's lock", () =>
      readdirSync(join(volume, ".adreport")).some((n) => /^[0-9a-f]{8}\.lock$/.test(n)),
    );
    const refused = await newHost({ url: service.url, key }, podNamed("pod-b")).run([...JOB, ...START, "-o", files]);
    expect(refused.code, refused.stderr).toBe(75);
    expect(refused.stderr).toMatch(
      new RegExp(`^adreport: another run of this job .* pid ${holder.pid} on "pod-a"`, "m"),
    );
    holder.kill("SIGKILL");
    await holder.output;
    await demo.reopen();
    const next = await newHost({ url: service.url, key }, podNamed("pod-b")).run([...JOB, ...START, "-o", files]);
    expect(next.code, next.stderr).toBe(0);
    expect(readdirSync(volume).filter((n) => n.endsWith(".csv")).length).toBeGreaterThan(50);
  }, 60_000);
});
