/**
 * `report --profiles/--all-profiles` attacked: `--record DIR` with several accounts, and profile names a
 * hand-edited config file holds that `keys add` would never make (a path, a terminal escape).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configDirWith } from "../../helpers/config";
import { runInProcess } from "../../helpers/run-cli-in-process";
import { SMALL_DEMO, startTestService } from "../../helpers/serve";
import { tempDir } from "../../helpers/temp";

const service = await startTestService({
  demo: { ...SMALL_DEMO, advertisers: 2 },
  keys: [
    { advertiser: "Acme Outdoor", ips: ["127.0.0.1"] },
    { advertiser: "Globex, Inc.", ips: ["127.0.0.1"] },
  ],
});
const [ACME, GLOBEX] = service.keys as [string, string];
const ok = (key: string) => ({ "api-key": key, "base-url": service.url });
const GOOD = configDirWith({}, { acme: ok(ACME), globex: ok(GLOBEX) });
const NOW = new Date("2026-11-02T09:30:00Z");
const RANGE = ["--from", "2026-10-01", "--to", "2026-10-31", "--dims", "campaign"];

/** Control characters other than the line break, as a terminal would get them. */
function rawControls(text: string): string[] {
  return [...text.replaceAll("\n", "").matchAll(/\p{Cc}/gu)].map((m) => m[0]);
}

function report(config: string, args: string[], cwd = tempDir()) {
  return runInProcess(["report", ...args], {
    now: NOW,
    cwd,
    env: { ADREPORT_CONFIG_DIR: config, TMPDIR: tempDir("adreport-spool-") },
  });
}

describe.concurrent("report over accounts, attacked", () => {
  it("--record DIR: each account recorded in DIR/<profile>, every one of them whole", async () => {
    const cwd = tempDir();
    const result = await report(GOOD, ["--all-profiles", ...RANGE, "-f", "ndjson", "--record", "rec"], cwd);
    expect(result.stderr).not.toContain("not empty");
    expect(result.code).toBe(0);
    expect(readdirSync(join(cwd, "rec")).sort()).toEqual(["acme", "globex"]);
    for (const profile of ["acme", "globex"]) {
      const index = JSON.parse(readFileSync(join(cwd, "rec", profile, "index.json"), "utf8")) as {
        exchanges: Array<{ status: number }>;
      };
      expect(index.exchanges.map((e) => e.status)).toEqual([200]);
    }
  });

  it("serve replay DIR of such a recording names the accounts' folders to replay", async () => {
    const cwd = tempDir();
    expect((await report(GOOD, ["--all-profiles", ...RANGE, "-f", "ndjson", "--record", "rec"], cwd)).code).toBe(0);
    const result = await runInProcess(["serve", "replay", join(cwd, "rec"), "--port", "0"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("holds the recordings of several accounts (acme, globex): replay one, e.g.");
  });

  it("--record DIR that has files in it: refused before any request, exit 2", async () => {
    const cwd = tempDir();
    const first = await report(GOOD, ["--all-profiles", ...RANGE, "-f", "ndjson", "--record", "rec"], cwd);
    expect(first.code).toBe(0);
    const again = await report(GOOD, ["--all-profiles", ...RANGE, "-f", "ndjson", "--record", "rec"], cwd);
    expect(again.code).toBe(2);
    expect(again.stdout).toBe("");
    expect(again.stderr).toContain("--record: rec is not empty");
  });

  for (const bad of ["zz/../../evil", "zz\u001b[31mred", "a\u009b31mb"]) {
    it(`--all-profiles with a profile ${JSON.stringify(bad)} in the config file: refused before any request, printably`, async () => {
      const config = configDirWith({}, { acme: ok(ACME), globex: ok(GLOBEX), [bad]: ok(GLOBEX) });
      const cwd = tempDir();
      const result = await report(config, ["--all-profiles", ...RANGE, "-o", "out-{profile}.csv"], cwd);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^adreport: the config file has a profile named .* that is not a profile name/);
      expect(rawControls(result.stderr)).toEqual([]);
      expect(result.stderr).not.toContain("--profile:");
      expect(readdirSync(cwd)).toEqual([]);
      expect(existsSync(join(cwd, "..", "evil.csv"))).toBe(false);
    });

    it(`keys test --all with a profile ${JSON.stringify(bad)}: refused, nothing raw on the terminal`, async () => {
      const config = configDirWith({}, { acme: ok(ACME), [bad]: ok(GLOBEX) });
      const result = await runInProcess(["keys", "test", "--all"], { env: { ADREPORT_CONFIG_DIR: config } });
      expect(result.code).toBe(2);
      expect(rawControls(result.stdout + result.stderr)).toEqual([]);
    });
  }

  /** The merged text export is each account's own export, a column `profile` first, in profile order. */
  it.each([
    ["--fields", ["--dims", "campaign", "--fields", "views"]],
    ["--fields naming dates", ["--dims", "campaign,date", "--fields", "views,date,name"]],
    ["--tz", ["--dims", "campaign,date", "--tz", "Europe/Paris"]],
    ["--tz hourly", ["--dims", "date", "--granularity", "hour", "--tz", "America/New_York"]],
    ["--date-format epoch", ["--dims", "date", "--date-format", "epoch"]],
    ["--compare", ["--dims", "campaign", "--compare", "previous"]],
    ["--top", ["--dims", "campaign", "--top", "1"]],
  ])("CSV and TSV with %s: each account's own export, profile first", async (_what, args) => {
    for (const format of ["csv", "tsv"]) {
      const merged = await report(GOOD, [
        "--all-profiles",
        "-q",
        "--from",
        "2026-10-01",
        "--to",
        "2026-10-05",
        ...args,
        "-f",
        format,
      ]);
      expect(merged.stderr).toBe("");
      const alone = await Promise.all(
        ["acme", "globex"].map((profile) =>
          report(GOOD, ["--profile", profile, "--from", "2026-10-01", "--to", "2026-10-05", ...args, "-f", format]),
        ),
      );
      const sep = format === "csv" ? "," : "\t";
      const lines = (text: string) => text.split("\n").filter((line) => line !== "");
      const [header = "", ...acme] = lines(alone[0]?.stdout ?? "");
      const globex = lines(alone[1]?.stdout ?? "").slice(1);
      expect(lines(merged.stdout)).toEqual([
        `profile${sep}${header}`,
        ...acme.map((line) => `acme${sep}${line}`),
        ...globex.map((line) => `globex${sep}${line}`),
      ]);
    }
  });

  it("--fields may place profile", async () => {
    const merged = await report(GOOD, ["--all-profiles", ...RANGE, "--fields", "views,profile", "-f", "csv"]);
    expect(merged.code).toBe(0);
    expect(merged.stdout.split("\n")[0]).toBe("views,profile");
    expect(merged.stdout.split("\n")[1]).toMatch(/^\d+,acme$/);
  });

  it.each([
    ["--tz", "Mars/Base"],
    ["--tz", "Asia/Kolkata"],
    ["--fields", "nope"],
    ["--sort", "nope"],
    ["--top", "0"],
  ])("%s %s is refused once, before any request, as for one account", async (flag, value) => {
    const merged = await report(GOOD, ["--all-profiles", ...RANGE, flag, value]);
    const alone = await report(GOOD, ["--profile", "acme", ...RANGE, flag, value]);
    expect(alone.code).toBe(2);
    expect(merged.code).toBe(2);
    expect(merged.stderr).toBe(alone.stderr);
  });

  it("--format chart without date is refused once, before any request, as for one account", async () => {
    const merged = await report(GOOD, ["--all-profiles", ...RANGE, "-f", "chart"]);
    const alone = await report(GOOD, ["--profile", "acme", ...RANGE, "-f", "chart"]);
    expect(alone.code).toBe(2);
    expect(merged.code).toBe(2);
    expect(merged.stderr).toBe(alone.stderr);
  });

  it("html and chart: the page names the query and the export time, the chart fits the terminal", async () => {
    const html = await report(GOOD, ["--all-profiles", "-q", ...RANGE, "-f", "html"]);
    expect(html.code).toBe(0);
    expect(html.stdout).toContain("adreport report: campaign from 2026-10-01");
    expect(html.stdout).toContain(NOW.toISOString());
    const chart = await runInProcess(
      ["report", "--all-profiles", "-q", "--from", "2026-10-01", "--to", "2026-10-31", "--dims", "date", "-f", "chart"],
      { now: NOW, columns: 60, env: { ADREPORT_CONFIG_DIR: GOOD, TMPDIR: tempDir("adreport-spool-") } },
    );
    expect(chart.code).toBe(0);
    const widest = Math.max(...chart.stdout.split("\n").map((line) => [...line].length));
    expect(widest).toBeLessThanOrEqual(60);
  });
});
