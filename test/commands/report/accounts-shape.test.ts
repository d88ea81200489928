/**
 * Several accounts in one output (--profiles) with the flags of the analyst's view: --tz dates in each
 * account's zone, --fields columns in order after `profile`, the table's ratio totals from summed counters.
 * Each case is checked against one account's own export, or against sums made here.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configDirWith } from "../../helpers/config";
import { runInProcess } from "../../helpers/run-cli-in-process";
import { SMALL_DEMO, startTestService } from "../../helpers/serve";
import { tempDir } from "../../helpers/temp";

const NOW = new Date("2026-11-02T08:30:00Z");
const ADVERTISERS = ["Acme Outdoor", "Globex, Inc."] as const;
const accounts = await startTestService({
  demo: SMALL_DEMO,
  keys: ADVERTISERS.map((advertiser) => ({ advertiser, ips: ["127.0.0.1"] })),
});
const [ACME, GLOBEX] = accounts.keys as [string, string];
const PROFILES = configDirWith(
  {},
  {
    acme: { "api-key": ACME, "base-url": accounts.url },
    globex: { "api-key": GLOBEX, "base-url": accounts.url },
  },
);
const ACCOUNT_RANGE = ["--from", "2026-10-20", "--to", "2026-10-27"];

function accountReport(args: string[]) {
  return runInProcess(["report", "-q", ...ACCOUNT_RANGE, ...args], {
    now: NOW,
    env: { ADREPORT_CONFIG_DIR: PROFILES, TMPDIR: tempDir("adreport-spool-") },
  });
}

function csvLines(text: string): string[] {
  return text.split("\n").filter((line) => line !== "");
}

describe("several accounts in one output", () => {
  it("--tz: CSV shows each account's dates in the zone, as one account's export does", async () => {
    const args = ["--dims", "date", "--metrics", "clicks", "--tz", "America/Los_Angeles", "-f", "csv"];
    const both = await accountReport(["--profiles", "acme,globex", ...args]);
    const acme = await accountReport(["--profile", "acme", ...args]);
    const globex = await accountReport(["--profile", "globex", ...args]);
    expect(both.code, both.stderr).toBe(0);
    const expected = [
      "profile,date,clicks",
      ...csvLines(acme.stdout)
        .slice(1)
        .map((line) => `acme,${line}`),
      ...csvLines(globex.stdout)
        .slice(1)
        .map((line) => `globex,${line}`),
    ];
    expect(csvLines(both.stdout)).toEqual(expected);
    expect(csvLines(both.stdout)[1]).toMatch(/^acme,2026-10-20,/);
  });

  it("--fields: CSV has profile then the chosen columns, in their order", async () => {
    const args = ["--dims", "campaign", "--metrics", "clicks,ctr", "--fields", "ctr,name", "-f", "csv"];
    const both = await accountReport(["--profiles", "acme,globex", ...args]);
    const acme = await accountReport(["--profile", "acme", ...args]);
    expect(both.code, both.stderr).toBe(0);
    const lines = csvLines(both.stdout);
    expect(lines[0]).toBe("profile,ctr,name");
    expect(lines.slice(1, csvLines(acme.stdout).length)).toEqual(
      csvLines(acme.stdout)
        .slice(1)
        .map((line) => `acme,${line}`),
    );
  });

  it("--fields: the table's totals row has the ratio from every account's summed counters", async () => {
    const table = await accountReport([
      "--profiles",
      "acme,globex",
      "--dims",
      "campaign",
      "--metrics",
      "clicks,views,ctr",
      "--fields",
      "name,ctr",
      "-f",
      "table",
    ]);
    const counters = await accountReport([
      "--profiles",
      "acme,globex",
      "--dims",
      "campaign",
      "--metrics",
      "clicks,views",
      "-f",
      "ndjson",
    ]);
    expect(table.code, table.stderr).toBe(0);
    let clicks = 0;
    let views = 0;
    for (const line of csvLines(counters.stdout)) {
      const row = JSON.parse(line) as { metrics: { clicks: number; views: number } };
      clicks += row.metrics.clicks;
      views += row.metrics.views;
    }
    const totals = table.stdout.split("\n").find((line) => line.includes("total ("));
    expect(totals).toContain(`${((clicks / views) * 100).toFixed(2)}%`);
  });
});

describe("several accounts in one page", () => {
  it("html: each account's entities are their own series, labelled with the profile", async () => {
    const dir = tempDir();
    const result = await runInProcess(
      ["report", "-q", ...ACCOUNT_RANGE, "--profiles", "acme,globex", "--dims", "campaign,date", "-o", "page.html"],
      { now: NOW, cwd: dir, env: { ADREPORT_CONFIG_DIR: PROFILES, TMPDIR: tempDir("adreport-spool-") } },
    );
    expect(result.code, result.stderr).toBe(0);
    const html = readFileSync(join(dir, "page.html"), "utf8");
    const start = html.indexOf('id="adreport-picture">') + 'id="adreport-picture">'.length;
    const picture = JSON.parse(html.slice(start, html.indexOf("</script>", start))) as {
      series: Array<{ label: string }>;
    };
    expect(html).toContain("<h1>adreport report: campaign, date from 2026-10-20 to 2026-10-27 (day)");
    const labels = picture.series.map((series) => series.label);
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels.some((label) => label.startsWith("acme: "))).toBe(true);
    expect(labels.some((label) => label.startsWith("globex: "))).toBe(true);
  });
});

describe("several accounts refused before any request", () => {
  it("chart without date: exit 2 before any account is fetched (no account table)", async () => {
    const requests = accounts.accessLog.length;
    const result = await accountReport(["--profiles", "acme,globex", "--dims", "campaign", "-f", "chart"]);
    expect(result.code).toBe(2);
    expect(accounts.accessLog.length).toBe(requests);
    expect(result.stderr).toContain("--format chart draws a metric over dates");
    expect(result.stderr).not.toContain("│ acme");
  });
});

describe("several accounts into one file named by dates", () => {
  it("--tz: {from} and {to} are the zone's dates, as for one account", async () => {
    const dir = tempDir();
    // 12:00 UTC is already the next day at UTC+14: yesterday there is today in UTC.
    const run = (args: string[]) =>
      runInProcess(
        [
          "report",
          "-q",
          "--from",
          "yesterday",
          "--to",
          "yesterday",
          "--dims",
          "campaign",
          "--tz",
          "Pacific/Kiritimati",
          ...args,
        ],
        {
          now: new Date("2026-11-02T12:00:00Z"),
          cwd: dir,
          env: { ADREPORT_CONFIG_DIR: PROFILES, TMPDIR: tempDir("adreport-spool-") },
        },
      );
    const one = await run(["--profile", "acme", "-o", "one-{from}-{to}.csv"]);
    const both = await run(["--profiles", "acme,globex", "-o", "both-{from}-{to}.csv"]);
    expect(one.code, one.stderr).toBe(0);
    expect(both.code, both.stderr).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(["both-2026-11-02-2026-11-02.csv", "one-2026-11-02-2026-11-02.csv"]);
  });
});
