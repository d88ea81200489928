/**
 * `report --dry-run` in this process against a real `serve`, whose access log proves that no request was
 * made: the plan of a plain export, of {date} files, of a SQLite table, of incremental runs (first, later,
 * nothing to do), of several accounts, as text and as --summary json; and that no file, folder, table,
 * state or lock appears. Each plan is checked against what the real run then does.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configDirWith } from "../../helpers/config";
import { startDemoService } from "../../helpers/demo-service";
import { at } from "../../helpers/incremental";
import { runInProcess } from "../../helpers/run-cli-in-process";
import { SMALL_DEMO, startTestService } from "../../helpers/serve";

const demo = await startDemoService();
const { dir } = demo;
const log = demo.service.accessLog;
const NOW = at("2026-11-02");
const CRON = ["report", "--dims", "campaign,date", "--incremental"];

/** A dry run at `now`: exit 0, and not one request reached the service. */
async function dryRun(args: string[], now = NOW, extra: Record<string, string | undefined> = {}) {
  const before = log.length;
  const result = await demo.run([...args, "--dry-run"], now, extra);
  expect(log.length, "requests made by a dry run").toBe(before);
  return result;
}

/** The one JSON line on stderr (the last but for an error line after it). */
const lastJson = (text: string) => JSON.parse(text.split("\n").findLast((line) => line.startsWith("{")) as string);
const stateDir = join(dir, "config", "state");

describe("report --dry-run", () => {
  it("plain export: the range, its 90-day windows, the output with {from}/{to} filled; nothing written", async () => {
    const args = [
      "report",
      "--from",
      "2024-01-01",
      "--to",
      "2024-06-28",
      "--dims",
      "campaign",
      "-o",
      "r-{from}-{to}.csv",
    ];
    const result = await dryRun([...args, "--summary", "json"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(
      [
        "range:    2024-01-01..2024-06-28 (UTC)",
        "windows:  2 windows: 2024-01-01..2024-03-30, 2024-03-31..2024-06-28",
        "output:   r-2024-01-01-2024-06-28.csv (csv)",
        "requests: at least 2 (one per window)",
        "",
      ].join("\n"),
    );
    expect(lastJson(result.stderr)).toEqual({
      dry_run: true,
      outcome: "planned",
      job: null,
      from: "2024-01-01",
      to: "2024-06-28",
      zone: "UTC",
      windows: [
        { from: "2024-01-01", to: "2024-03-30" },
        { from: "2024-03-31", to: "2024-06-28" },
      ],
      output: { kind: "file", path: "r-2024-01-01-2024-06-28.csv" },
      format: "csv",
      requests_at_least: 2,
    });
    expect(existsSync(join(dir, "r-2024-01-01-2024-06-28.csv"))).toBe(false);

    // stdout, a zone, --compare: the second period's windows count too; the key never shows.
    const compared = await dryRun(
      ["report", "--from", "2026-10-01", "--to", "2026-10-31", "--tz", "Europe/Berlin", "--compare", "previous"],
      NOW,
    );
    expect(compared.code, compared.stderr).toBe(0);
    expect(compared.stdout).toBe(
      [
        "range:    2026-10-01..2026-10-31 (Europe/Berlin)",
        "windows:  1 window: 2026-10-01..2026-10-31",
        "compared: 2026-08-31..2026-09-30, 1 window: 2026-08-31..2026-09-30",
        "output:   standard output (csv)",
        "requests: at least 2 (one per window, of both periods)",
        "",
      ].join("\n"),
    );
    expect(compared.stdout + compared.stderr).not.toContain(demo.key.slice(4));

    // Ends that are not midnights are instants.
    const hours = await dryRun(["report", "--from", "2026-10-01T12:00:00Z", "--to", "2026-10-02"]);
    expect(hours.stdout).toMatch(/^range: {4}2026-10-01T12:00:00Z\.\.2026-10-02 \(UTC\)\n/);
  });

  it("{date} files: the job a run of the same query and files is; no folder, file or state made", async () => {
    const days = ["report", "--dims", "campaign,date", "-o", "days/{date}.csv"];
    mkdirSync(join(dir, "days"));
    const result = await dryRun([...days, "--from", "2026-10-20", "--to", "2026-10-25"]);
    expect(result.code, result.stderr).toBe(0);
    const job = /^job: +([0-9a-f]{8})$/m.exec(result.stdout)?.[1] as string;
    expect(result.stdout).toBe(
      [
        "range:    2026-10-20..2026-10-25 (UTC)",
        "windows:  1 window: 2026-10-20..2026-10-25",
        "output:   one file per date bucket, days/{date}.csv (csv)",
        `job:      ${job}`,
        "requests: at least 1 (one per window)",
        "",
      ].join("\n"),
    );
    expect(readdirSync(join(dir, "days"))).toEqual([]);
    expect(existsSync(stateDir)).toBe(false);
    // The same files as an incremental job: the state a real run writes carries that id.
    const requests = log.length;
    const real = await demo.run([...days, "--incremental", "--start", "2026-10-30"], NOW);
    expect(real.code, real.stderr).toBe(0);
    expect(log.length, "the access log counts a real run's requests").toBeGreaterThan(requests);
    expect(readdirSync(stateDir)).toContain(`${job}.json`);
  });

  it("{date} files into a folder not there yet: the plan, the folder it needs, refused as the run refuses it (exit 2)", async () => {
    const job = [
      "report",
      "--dims",
      "campaign,date",
      "-o",
      "later/{date}.csv",
      "--incremental",
      "--start",
      "2026-10-30",
    ];
    const refusal = "adreport: cannot write later/{date}.csv: no such folder\nhint: create it first: mkdir -p later\n";
    const before = log.length;
    const result = await demo.run([...job, "--dry-run", "--summary", "json"], NOW);
    expect(log.length, "requests made by a dry run").toBe(before);
    expect(result.code, result.stderr).toBe(2);
    const id = /^job: +([0-9a-f]{8})$/m.exec(result.stdout)?.[1] as string;
    expect(result.stdout).toBe(
      [
        "range:    2026-10-30..2026-11-01 (UTC; from --start 2026-10-30, a first run)",
        "windows:  1 window: 2026-10-30..2026-11-01",
        "output:   one file per date bucket, later/{date}.csv (csv)",
        "folder:   later is not there yet: a run refuses it before any request (create it first: mkdir -p later)",
        `job:      ${id}`,
        `state:    ${join(stateDir, `${id}.json`)} (none yet: this is the job's first run)`,
        `lock:     ${join(stateDir, `${id}.lock`)}`,
        "requests: at least 1 (one per window)",
        "",
      ].join("\n"),
    );
    const summary = JSON.parse(result.stderr.split("\n").find((line) => line.startsWith("{")) as string);
    expect(summary).toMatchObject({
      dry_run: true,
      outcome: "refused",
      error: "cannot write later/{date}.csv: no such folder",
      job: id,
    });
    expect(result.stderr.endsWith(refusal)).toBe(true);
    expect(existsSync(join(dir, "later"))).toBe(false);
    // The run refuses it alike, before any request; once the folder is made it writes the planned days.
    const run = await demo.run(job, NOW);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(refusal);
    expect(log.length, "requests made by a refused run").toBe(before);
    mkdirSync(join(dir, "later"));
    const made = await demo.run([...job, "-q"], NOW);
    expect(made.code, made.stderr).toBe(0);
    expect(readdirSync(join(dir, "later")).sort()).toEqual(["2026-10-30.csv", "2026-10-31.csv", "2026-11-01.csv"]);
    expect(readdirSync(stateDir)).toContain(`${id}.json`);
  });

  it("{date} in a folder's name: the folder above it must be there; each day's folder is made by the run", async () => {
    const args = ["report", "--dims", "campaign,date", "--from", "2026-10-30", "--to", "2026-11-01"];
    const missing = await demo.run([...args, "-o", "byday/{date}/ads.csv", "--dry-run"], NOW);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toContain(
      "folder:   byday is not there yet: a run refuses it before any request (create it first: mkdir -p byday)\n",
    );
    expect(missing.stderr).toBe(
      "adreport: cannot write byday/{date}/ads.csv: no such folder\nhint: create it first: mkdir -p byday\n",
    );
    mkdirSync(join(dir, "byday"));
    expect((await dryRun([...args, "-o", "byday/{date}/ads.csv"])).code).toBe(0);
    expect(readdirSync(join(dir, "byday"))).toEqual([]);
    const run = await demo.run([...args, "-o", "byday/{date}/ads.csv", "-q"], NOW);
    expect(run.code, run.stderr).toBe(0);
    expect(readdirSync(join(dir, "byday")).sort()).toEqual(["2026-10-30", "2026-10-31", "2026-11-01"]);
    for (const day of ["2026-10-30", "2026-10-31", "2026-11-01"]) {
      expect(readdirSync(join(dir, "byday", day))).toEqual(["ads.csv"]);
    }
    // A run that fails (a file where a day's folder goes) leaves no folder it made behind.
    mkdirSync(join(dir, "byday2"));
    writeFileSync(join(dir, "byday2", "2026-10-31"), "not a folder\n");
    const failed = await demo.run([...args, "-o", "byday2/{date}/ads.csv", "-q"], NOW);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/^adreport: cannot write byday2\/2026-10-31\/ads\.csv: /);
    expect(readdirSync(join(dir, "byday2"))).toEqual(["2026-10-31"]);
    // Stopped mid-way (SIGTERM): no file and no folder it made is left.
    mkdirSync(join(dir, "byday3"));
    await demo.reopen("delay:100ms");
    try {
      const stopped = demo.start([...args, "-o", "byday3/{date}/ads.csv", "--page-size", "1", "-v"], NOW);
      await stopped.waitFor("stderr", /GET .*page=2/);
      stopped.signal("SIGTERM");
      expect((await stopped.result).code).toBe(130);
    } finally {
      await demo.reopen();
    }
    expect(readdirSync(join(dir, "byday3"))).toEqual([]);
  });

  it("a SQLite table, --incremental first run: state and lock named, range from --start; no database file", async () => {
    const args = [...CRON, "-o", "sqlite:ads.db", "--table", "daily", "--start", "2026-10-20"];
    const result = await dryRun([...args, "--summary-file", "plan.json"], NOW, {
      ADREPORT_CONFIG_DIR: join(dir, "config-sqlite"),
    });
    expect(result.code, result.stderr).toBe(0);
    const plan = JSON.parse(readFileSync(join(dir, "plan.json"), "utf8"));
    const state = join(dir, "config-sqlite", "state", `${plan.job}.json`);
    const lock = join(dir, "config-sqlite", "state", `${plan.job}.lock`);
    expect(result.stdout).toBe(
      [
        "range:    2026-10-20..2026-11-01 (UTC; from --start 2026-10-20, a first run)",
        "windows:  1 window: 2026-10-20..2026-11-01",
        "output:   table daily in sqlite:ads.db",
        `job:      ${plan.job}`,
        `state:    ${state} (none yet: this is the job's first run)`,
        `lock:     ${lock}`,
        "requests: at least 1 (one per window)",
        "",
      ].join("\n"),
    );
    expect(plan).toMatchObject({
      outcome: "planned",
      from: "2026-10-20",
      to: "2026-11-01",
      output: { kind: "sqlite", database: "ads.db", table: "daily" },
      format: null,
      incremental: { state_file: state, lock_file: lock, state_exists: false, last_day: null, again_days: [] },
      requests_at_least: 1,
    });
    expect(existsSync(join(dir, "ads.db"))).toBe(false);
    expect(existsSync(join(dir, "config-sqlite"))).toBe(false);
  });

  it("a later incremental run: the range from the state, the lookback days listed; nothing to do; state untouched", async () => {
    const job = [...CRON, "-o", "inc/{date}.csv"];
    mkdirSync(join(dir, "inc"));
    const env = { ADREPORT_CONFIG_DIR: join(dir, "config-inc") };
    expect((await demo.run([...job, "--start", "2026-10-25"], at("2026-10-30"), env)).code).toBe(0);
    const folder = join(dir, "config-inc", "state");
    const before = readdirSync(folder).map((name) => [name, statSync(join(folder, name)).mtimeMs]);
    const files = readdirSync(join(dir, "inc"));

    const later = await dryRun([...job, "--summary", "json"], at("2026-11-02"), env);
    expect(later.code, later.stderr).toBe(0);
    const plan = lastJson(later.stderr);
    expect(later.stdout).toContain(
      "range:    2026-10-27..2026-11-01 (UTC; the days after 2026-10-29, the last day exported, and --lookback 3d before them)\n",
    );
    expect(later.stdout).toContain(`state:    ${join(folder, `${plan.job}.json`)} (exists, last day 2026-10-29)\n`);
    expect(later.stdout).toContain(
      "again:    3 days the state records, compared and rewritten only when changed: 2026-10-27, 2026-10-28, 2026-10-29\n",
    );
    expect(plan.incremental).toMatchObject({
      state_exists: true,
      last_day: "2026-10-29",
      lookback_days: 3,
      again_days: ["2026-10-27", "2026-10-28", "2026-10-29"],
      nothing_to_do: null,
    });
    expect(readdirSync(folder).map((name) => [name, statSync(join(folder, name)).mtimeMs])).toEqual(before);
    expect(readdirSync(join(dir, "inc"))).toEqual(files);

    // The run itself fetches what the plan said.
    const real = await demo.run([...job, "--summary", "json"], at("2026-11-02"), env);
    expect(real.code, real.stderr).toBe(0);
    expect(lastJson(real.stderr)).toMatchObject({ job: plan.job, from: plan.from, to: plan.to });
    expect(lastJson(real.stderr).requests).toBeGreaterThanOrEqual(plan.requests_at_least);

    const idle = await dryRun([...job, "--lookback", "0d", "--summary", "json"], at("2026-11-02"), env);
    expect(idle.code, idle.stderr).toBe(0);
    expect(idle.stdout).toMatch(
      /^range: {4}nothing to do: every day up to 2026-11-01 is exported and today \(2026-11-02\) is not complete\n/,
    );
    expect(idle.stdout).toMatch(/\nrequests: none\n$/);
    expect(lastJson(idle.stderr)).toMatchObject({ outcome: "nothing to do", from: null, to: null, windows: [] });
  });

  it("refuses what a run refuses, with its exit code, before any request", async () => {
    const refusals: Array<[string[], number, RegExp]> = [
      [[...CRON, "-o", "x.csv"], 2, /needs an output it can rewrite day by day/],
      [[...CRON, "-o", "sqlite:x.db", "--from", "-3d"], 2, /drop --from and --to/],
      [[...CRON, "-o", "sqlite:x.db"], 2, /first run of a job needs --start/],
      [["report", "--lookback", "3d"], 2, /--lookback applies to --incremental runs only/],
      [["report", "-o", "nowhere/x.csv"], 2, /no such folder\nhint: create it first: mkdir -p nowhere\n/],
    ];
    for (const [args, code, message] of refusals) {
      const result = await demo.run([...args, "--dry-run"], NOW, { ADREPORT_CONFIG_DIR: join(dir, "config-refused") });
      expect(result.code, args.join(" ")).toBe(code);
      expect(result.stderr).toMatch(message);
    }
    // --record: a folder with files in it is refused; a new one is not made.
    mkdirSync(join(dir, "taken"));
    writeFileSync(join(dir, "taken", "x"), "");
    expect((await demo.run(["report", "--record", "taken", "--dry-run"], NOW)).code).toBe(2);
    expect((await dryRun(["report", "--record", "fresh"])).code).toBe(0);
    expect(existsSync(join(dir, "fresh"))).toBe(false);
    expect(existsSync(join(dir, "config-refused"))).toBe(false);
  });
});

describe("report --dry-run --profiles", () => {
  it("one plan per account, each its own job; an account without a key fails as a run would (exit 6)", async () => {
    const service = await startTestService({
      demo: { ...SMALL_DEMO, advertisers: 2 },
      keys: [
        { advertiser: "Acme Outdoor", ips: ["127.0.0.1"] },
        { advertiser: "Globex, Inc.", ips: ["127.0.0.1"] },
      ],
    });
    const ok = (key: string | undefined) => ({ "api-key": key, "base-url": service.url });
    const config = configDirWith({}, { acme: ok(service.keys[0]), globex: ok(service.keys[1]), nokey: ok(undefined) });
    const cwd = demo.dir;
    const run = (profiles: string) =>
      runInProcess(
        ["report", "--profiles", profiles, "--dims", "campaign,date", "-o", "sqlite:accounts.db", "--dry-run"].concat([
          "--from",
          "2026-10-01",
          "--to",
          "2026-10-31",
          "--summary",
          "json",
        ]),
        { env: { ADREPORT_CONFIG_DIR: config }, now: NOW, cwd },
      );
    const result = await run("acme,globex");
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^profile acme:\n {2}range: {4}2026-10-01\.\.2026-10-31 \(UTC\)\n/);
    expect(result.stdout).toMatch(/\nprofile globex:\n {2}range: {4}2026-10-01\.\.2026-10-31 \(UTC\)\n/);
    const summary = lastJson(result.stderr);
    expect(summary.outcome).toBe("planned");
    expect(summary.accounts.map((a: { profile: string }) => a.profile)).toEqual(["acme", "globex"]);
    const [acme, globex] = summary.accounts;
    expect(acme.job).not.toBe(globex.job);
    expect(acme).toMatchObject({ output: { kind: "sqlite", table: "adreport_campaign_date" }, requests_at_least: 1 });

    const partial = await run("acme,nokey");
    expect(partial.code).toBe(6);
    expect(partial.stdout).toMatch(/\nprofile nokey:\n {2}no key: /);
    expect(lastJson(partial.stderr)).toMatchObject({
      outcome: "partial",
      accounts: [{ profile: "acme" }, { profile: "nokey", outcome: "no key" }],
    });
    expect(service.accessLog).toEqual([]);
    expect(existsSync(join(cwd, "accounts.db"))).toBe(false);

    // A flag every account refuses: each account's line, its hint once, as the run says it.
    const refused = await runInProcess(
      [
        "report",
        "--profiles",
        "acme,globex",
        "--dims",
        "campaign,date",
        "-o",
        "sqlite:accounts.db",
        "--dry-run",
      ].concat(["--incremental", "--start", "2026-10-01", "--from", "2026-10-05"]),
      { env: { ADREPORT_CONFIG_DIR: config }, now: NOW, cwd },
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr.match(/^hint: /gm)).toHaveLength(1);
  });
});
