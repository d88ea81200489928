/**
 * How the features of `report` combine: whole-day targets with the flags that re-shape rows, --summary
 * outside whole-day runs and over several accounts, several accounts into {date} files or one SQLite table.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { configDirWith } from "../../helpers/config";
import { runInProcess } from "../../helpers/run-cli-in-process";
import { startTestService } from "../../helpers/serve";
import { tempDir } from "../../helpers/temp";

const service = await startTestService({
  keys: [
    { advertiser: "Acme Outdoor", ips: ["127.0.0.1"] },
    { advertiser: "Globex, Inc.", ips: ["127.0.0.1"] },
  ],
});
const [ACME, GLOBEX] = service.keys as [string, string];
const NOW = new Date("2026-11-02T09:30:00Z");
const RANGE = ["--from", "2026-10-01", "--to", "2026-10-03"];

function one(args: string[], cwd = tempDir()) {
  return runInProcess(["report", ...args], {
    now: NOW,
    cwd,
    env: { ADREPORT_API_KEY: ACME, ADREPORT_BASE_URL: service.url, ADREPORT_CONFIG_DIR: join(cwd, "config") },
  });
}

const ACCOUNTS = configDirWith(
  {},
  {
    acme: { "api-key": ACME, "base-url": service.url },
    globex: { "api-key": GLOBEX, "base-url": service.url },
  },
);
function accounts(args: string[], cwd = tempDir()) {
  return runInProcess(["report", "--all-profiles", ...args], {
    now: NOW,
    cwd,
    env: { ADREPORT_CONFIG_DIR: ACCOUNTS, TMPDIR: tempDir("adreport-spool-") },
  });
}

describe("whole-day targets keep the service's UTC days and counters", () => {
  it.each([
    [["--metrics", "clicks,ctr"], "ratios in --metrics"],
    [["--tz", "Europe/Berlin"], "--tz"],
    [["--compare", "previous"], "--compare"],
    [["--top", "3"], "--top"],
    [["--fill"], "--fill"],
    [["--fields", "date,clicks"], "--fields"],
  ])("%j with {date} files is exit 2 naming the flag, before any file is written", async (flags, named) => {
    const cwd = tempDir();
    const result = await one([...RANGE, "--dims", "campaign,date", ...flags, "-o", "{date}.csv"], cwd);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(named);
    expect(result.stderr).toContain("{date} in --output");
    expect(existsSync(join(cwd, "2026-10-01.csv"))).toBe(false);
  });

  it("a database target refuses a ratio too", async () => {
    const result = await one([...RANGE, "--dims", "campaign,date", "--metrics", "ctr", "-o", "sqlite:out.db"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("a database target");
  });
});

describe("--summary json outside whole-day runs", () => {
  it("an ordinary export: outcome, range, rows, requests, retries on stderr", async () => {
    const result = await one([...RANGE, "--dims", "campaign", "-f", "csv", "--page-size", "1", "--summary", "json"]);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stderr.trim().split("\n").at(-1) as string);
    expect(summary).toMatchObject({ outcome: "ok", from: "2026-10-01", to: "2026-10-03", retries: 0 });
    expect(summary.rows).toBe(result.stdout.trim().split("\n").length - 1);
    expect(summary.requests).toBe(summary.rows);
  });

  it("a failed export: outcome failed with the error, and the exit code of the failure", async () => {
    const result = await runInProcess(["report", ...RANGE, "--summary", "json"], {
      now: NOW,
      env: { ADREPORT_API_KEY: "adr_not_a_real_key_000000000000", ADREPORT_BASE_URL: service.url },
    });
    expect(result.code).toBe(3);
    const summary = JSON.parse(result.stderr.split("\n").find((l) => l.startsWith("{")) as string);
    expect(summary).toMatchObject({ outcome: "failed", rows: 0 });
    expect(summary.error).toMatch(/key/);
    expect(result.stderr).not.toContain("adr_not_a_real_key");
  });

  it("several accounts: one object with each account's outcome", async () => {
    const result = await accounts([...RANGE, "--dims", "campaign", "-q", "--summary", "json"]);
    expect(result.code).toBe(0);
    expect(result.stderr.trim().split("\n"), result.stderr).toHaveLength(1);
    const summary = JSON.parse(result.stderr.trim());
    expect(summary.outcome).toBe("ok");
    expect(summary.accounts.map((a: { profile: string; outcome: string }) => [a.profile, a.outcome])).toEqual([
      ["acme", "ok"],
      ["globex", "ok"],
    ]);
  });
});

describe("several accounts into whole-day targets", () => {
  it("{date} without {profile} is exit 2: the accounts' days would overwrite each other", async () => {
    const result = await accounts([...RANGE, "--dims", "campaign,date", "-o", "{date}.csv"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("{profile}");
  });

  it("{profile} and {date}: a file per account and day", async () => {
    const cwd = tempDir();
    const result = await accounts([...RANGE, "--dims", "campaign,date", "-q", "-o", "{profile}-{date}.csv"], cwd);
    expect(result.code, result.stderr).toBe(0);
    for (const profile of ["acme", "globex"])
      for (const day of ["2026-10-01", "2026-10-02", "2026-10-03"])
        expect(existsSync(join(cwd, `${profile}-${day}.csv`))).toBe(true);
  });

  it("one SQLite table: every account's rows, each under its profile", async () => {
    const cwd = tempDir();
    const result = await accounts([...RANGE, "--dims", "campaign,date", "-q", "-o", "sqlite:all.db"], cwd);
    expect(result.code, result.stderr).toBe(0);
    const db = new Database(join(cwd, "all.db"), { readonly: true });
    try {
      const profiles = db.prepare("SELECT DISTINCT profile FROM adreport_campaign_date ORDER BY profile").pluck().all();
      expect(profiles).toEqual(["acme", "globex"]);
    } finally {
      db.close();
    }
  });
});
