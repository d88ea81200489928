/**
 * Several accounts, each in its own zone (a profile's tz setting), into a file per account named by dates:
 * {from} and {to} in each account's file name are the days that file holds, from one clock for every account.
 * One file for every account named by {from}/{to}: its days are their one zone's; accounts in different
 * zones are refused (exit 2), and --dry-run names exactly the file the run writes.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configDirWith } from "../../helpers/config";
import { runInProcess } from "../../helpers/run-cli-in-process";
import { SMALL_DEMO, startTestService } from "../../helpers/serve";
import { tempDir } from "../../helpers/temp";

const ADVERTISERS = ["Acme Outdoor", "Globex, Inc."] as const;
const service = await startTestService({
  demo: SMALL_DEMO,
  keys: ADVERTISERS.map((advertiser) => ({ advertiser, ips: ["127.0.0.1"] })),
});
const [ACME, GLOBEX] = service.keys as [string, string];
/** b's days are Pago Pago's (UTC-11): at 09:30 UTC its yesterday is UTC's day before yesterday. */
const PROFILES = configDirWith(
  {},
  {
    a: { "api-key": ACME, "base-url": service.url },
    b: { "api-key": GLOBEX, "base-url": service.url, tz: "Pacific/Pago_Pago" },
    c: { "api-key": ACME, "base-url": service.url, tz: "Pacific/Pago_Pago" },
  },
);

function datesIn(csv: string): string[] {
  const [head = "", ...rows] = csv.split("\n").filter((line) => line !== "");
  const column = head.split(",").indexOf("date");
  return rows.map((row) => (row.split(",")[column] ?? "").slice(0, 10));
}

describe("--profiles with {from}-{to} in --output and a profile in another zone", () => {
  it("names each account's file by the days it holds", async () => {
    const dir = tempDir();
    const result = await runInProcess(
      [
        "report",
        "-q",
        "--profiles",
        "a,b",
        "--dims",
        "date",
        "--metrics",
        "clicks",
        "-o",
        "x-{profile}-{from}-{to}.csv",
      ],
      {
        now: new Date("2026-10-25T09:30:00Z"),
        cwd: dir,
        env: { ADREPORT_CONFIG_DIR: PROFILES, TMPDIR: tempDir("adreport-spool-") },
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(["x-a-2026-10-18-2026-10-24.csv", "x-b-2026-10-17-2026-10-23.csv"]);
    for (const [name, from, to] of [
      ["x-a-2026-10-18-2026-10-24.csv", "2026-10-18", "2026-10-24"],
      ["x-b-2026-10-17-2026-10-23.csv", "2026-10-17", "2026-10-23"],
    ] as const) {
      const dates = datesIn(readFileSync(join(dir, name), "utf8"));
      expect(dates.length).toBeGreaterThan(0);
      expect([dates[0], dates.at(-1)]).toEqual([from, to]);
    }
  });

  it("a run crossing midnight names each file by the days it holds (one clock for every account)", async () => {
    const dir = tempDir();
    let calls = 0;
    // The first reading is a second before midnight UTC; every later one is after it.
    const now = () => new Date(calls++ === 0 ? Date.UTC(2026, 9, 24, 23, 59, 59) : Date.UTC(2026, 9, 25, 0, 0, 1));
    const result = await runInProcess(
      [
        "report",
        "-q",
        "--profiles",
        "a,b",
        "--tz",
        "UTC",
        "--dims",
        "date",
        "--metrics",
        "clicks",
        "-o",
        "m-{profile}-{from}-{to}.csv",
      ],
      { now, cwd: dir, env: { ADREPORT_CONFIG_DIR: PROFILES, TMPDIR: tempDir("adreport-spool-") } },
    );
    expect(result.code, result.stderr).toBe(0);
    const names = readdirSync(dir).sort();
    expect(names).toHaveLength(2);
    for (const name of names) {
      const [, from, to] = /^m-[ab]-(\d{4}-\d{2}-\d{2})-(\d{4}-\d{2}-\d{2})\.csv$/.exec(name) ?? [];
      const dates = datesIn(readFileSync(join(dir, name), "utf8"));
      expect([dates[0], dates.at(-1)], name).toEqual([from, to]);
    }
  });
});

describe("--profiles with {from}-{to} in one file (no {profile})", () => {
  const NOW = new Date("2026-10-25T09:30:00Z");
  const QUERY = ["--dims", "date", "--metrics", "clicks", "-o", "all-{from}-{to}.csv"];
  const run = (dir: string, profiles: string, extra: string[]) =>
    runInProcess(["report", "-q", "--profiles", profiles, ...QUERY, ...extra], {
      now: NOW,
      cwd: dir,
      env: { ADREPORT_CONFIG_DIR: PROFILES, TMPDIR: tempDir("adreport-spool-") },
    });
  /** The files the dry run says the run writes (--summary json), and the files the run then wrote. */
  async function plannedAndWritten(profiles: string, extra: string[] = []) {
    const dir = tempDir();
    const dry = await run(dir, profiles, [...extra, "--dry-run", "--summary", "json"]);
    expect(dry.code, dry.stderr).toBe(0);
    const summary = JSON.parse(dry.stderr.split("\n").findLast((line) => line.startsWith("{")) as string);
    const planned = new Set(summary.accounts.map((a: { output: { path: string } }) => a.output.path));
    const result = await run(dir, profiles, extra);
    expect(result.code, result.stderr).toBe(0);
    return { planned: [...planned], written: readdirSync(dir), dir };
  }

  it("accounts in different zones: refused, exit 2, by the dry run and the run alike; nothing sent or written", async () => {
    const dir = tempDir();
    const before = service.accessLog.length;
    const dry = await run(dir, "a,b", ["--dry-run"]);
    const result = await run(dir, "a,b", []);
    for (const outcome of [dry, result]) {
      expect(outcome.code).toBe(2);
      expect(outcome.stdout).toBe("");
      expect(outcome.stderr).toBe(
        "adreport: --output: {from} and {to} name one file by its days, but these accounts count days in different time zones (a: UTC, b: Pacific/Pago_Pago)\n" +
          "hint: add {profile} to the name (a file per account, each named by its days), or give every account one zone: --tz UTC\n",
      );
    }
    expect(readdirSync(dir)).toEqual([]);
    expect(service.accessLog.length).toBe(before);
  });

  it("accounts in one zone (their profiles'): the file is named by that zone's days, as the dry run says", async () => {
    const { planned, written, dir } = await plannedAndWritten("b,c");
    expect(written).toEqual(["all-2026-10-17-2026-10-23.csv"]);
    expect(planned).toEqual(written);
    const dates = datesIn(readFileSync(join(dir, "all-2026-10-17-2026-10-23.csv"), "utf8"));
    expect([dates[0], dates.at(-1)]).toEqual(["2026-10-17", "2026-10-23"]);
  });

  it("one --tz for every account: the dry run names the file the run writes", async () => {
    const { planned, written } = await plannedAndWritten("a,b", ["--tz", "UTC"]);
    expect(written).toEqual(["all-2026-10-18-2026-10-24.csv"]);
    expect(planned).toEqual(written);
  });
});

describe("--profiles into day targets with ADREPORT_TZ left over", () => {
  it.each([
    ["a database target", "sqlite:all.db"],
    ["{date} files", "{profile}-{date}.csv"],
  ])("%s: the zone set aside is said once for the run, not once an account", async (_what, output) => {
    const result = await runInProcess(
      ["report", "-q", "--profiles", "a,b", "--dims", "campaign,date", "--from", "2026-10-20", "-o", output],
      {
        now: new Date("2026-10-25T09:30:00Z"),
        cwd: tempDir(),
        env: { ADREPORT_CONFIG_DIR: PROFILES, ADREPORT_TZ: "Europe/Berlin", TMPDIR: tempDir("adreport-spool-") },
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^adreport: warning: the time zone "Europe\/Berlin" \(environment\) is not used: /);
    expect(result.stderr.split("\n").filter((line) => line !== "")).toHaveLength(1);
  });
});
