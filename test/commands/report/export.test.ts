/**
 * `adreport report` in this process against a real server on 127.0.0.1 (and, for what our server does not
 * do, a small local HTTP server), checked against totals computed from the NDJSON that was loaded. What only
 * a process shows (signals, pipes, a terminal, the binary): test/e2e/report.test.ts.
 */

import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeService } from "../../helpers/fake-service";
import { failingService } from "../../helpers/local-server";
import { type RefLine, type RefQuery, referenceRows } from "../../helpers/reference";
import { runInProcess, startInProcess } from "../../helpers/run-cli-in-process";
import { SMALL_DEMO, serveDatabase, startTestService } from "../../helpers/serve";
import type { CliResult } from "../../helpers/spawn-cli";
import { tempDir } from "../../helpers/temp";

const dir = tempDir();
const configDir = join(dir, "config");
const service = await startTestService({
  keys: [
    { advertiser: "Acme Outdoor", ips: ["127.0.0.1"] },
    { advertiser: "Acme Outdoor", ips: ["192.0.2.1"] },
  ],
});
const { lines } = service;
const [KEY, ELSEWHERE_KEY] = service.keys as [string, string];
/** Fault rules count requests: each test that uses them gets a server of its own, whatever runs beside it. */
const FAULTS = "500:every2,429:every5:0,drop:every7,503:every11,delay:5ms";
const broken = await serveDatabase(service.dbPath, { faults: "503:1" });
/** Every run sees this clock: "yesterday" is 2026-11-01. */
const NOW = new Date("2026-11-02T09:30:00Z");

const outputs: CliResult[] = [];
async function report(args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  const result = await runInProcess(["report", ...args], {
    env: { ADREPORT_CONFIG_DIR: configDir, ADREPORT_API_KEY: KEY, ADREPORT_BASE_URL: service.url, ...env },
    now: NOW,
  });
  outputs.push(result);
  return result;
}

afterAll(() => {
  // No key may ever reach stdout or stderr.
  for (const output of outputs) {
    for (const key of [KEY, ELSEWHERE_KEY]) {
      expect(output.stdout).not.toContain(key.slice(4));
      expect(output.stderr).not.toContain(key.slice(4));
    }
  }
});

function expected(
  query: Partial<RefQuery> & { fromMs: number; toMs: number; metrics: string[] },
  from: RefLine[] = lines,
) {
  return referenceRows(from, { advertiser: "Acme Outdoor", byDate: false, granularity: "day", ...query });
}

const OCTOBER = { fromMs: Date.UTC(2026, 9, 1), toMs: Date.UTC(2026, 9, 31, 23, 59, 59) };
const ALL_METRICS = ["views", "spending", "clicks", "conversions"];

function ndjsonRows(stdout: string) {
  return stdout
    .trim()
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l));
}

// The cases are independent (their own files, folders and fault servers) and wait mostly on the service
// and on backoff: they run side by side.
describe.concurrent("formats", () => {
  it("exports NDJSON rows exactly as the reference computes them", async () => {
    const result = await report([
      "--from",
      "2026-10-01",
      "--to",
      "2026-10-31",
      "--dims",
      "campaign,date",
      "--format",
      "ndjson",
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(ndjsonRows(result.stdout)).toEqual(
      expected({ ...OCTOBER, metrics: ALL_METRICS, entity: "campaign", byDate: true }),
    );
  });

  it("writes CSV when stdout is not a terminal, one column per dimension key then per metric", async () => {
    const result = await report([
      "--from",
      "2026-10-01",
      "--to",
      "2026-10-31",
      "--dims",
      "ad",
      "--metrics",
      "clicks,views",
    ]);
    expect(result.code).toBe(0);
    const [header, ...rows] = result.stdout.trim().split("\n");
    expect(header).toBe("ad_id,name,campaign_id,clicks,views");
    const reference = expected({ ...OCTOBER, metrics: ["clicks", "views"], entity: "ad" });
    expect(rows).toHaveLength(reference.length);
    expect(rows[0]).toBe(
      [
        reference[0]?.dimensions.ad_id,
        reference[0]?.dimensions.name,
        reference[0]?.dimensions.campaign_id,
        reference[0]?.metrics.clicks,
        reference[0]?.metrics.views,
      ]
        .map((v) => (typeof v === "string" && /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : String(v)))
        .join(","),
    );
  });

  it("writes JSON with meta and every row of every page", async () => {
    const result = await report([
      "--from",
      "2026-10-01",
      "--to",
      "2026-10-31",
      "--dims",
      "ad,date",
      "--granularity",
      "hour",
      "--format",
      "json",
      "--page-size",
      "100",
    ]);
    expect(result.code).toBe(0);
    const body = JSON.parse(result.stdout);
    const reference = expected({ ...OCTOBER, metrics: ALL_METRICS, entity: "ad", byDate: true, granularity: "hour" });
    expect(body.meta).toMatchObject({ granularity: "hourly", dimensions: ["ad", "date"], total: reference.length });
    expect(body.data).toEqual(reference);
  });

  it("prints a table with a totals footer", async () => {
    const result = await report([
      "--from",
      "2026-10-25",
      "--to",
      "2026-10-31",
      "--dims",
      "campaign",
      "--format",
      "table",
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("│ campaign_id");
    expect(result.stdout).toMatch(/total \(2 rows\)/);
  });

  it("keeps names with commas, quotes, newlines and non-ASCII intact through CSV", async () => {
    const result = await report(["--from", "2026-10-01", "--to", "2026-10-31", "--dims", "keyword", "--format", "csv"]);
    expect(result.code).toBe(0);
    const names = new Set(
      lines.filter((l) => l.advertiser === "Acme Outdoor" && l.keyword).map((l) => l.keyword as string),
    );
    for (const name of names) {
      const quoted = /[",\n]/.test(name) ? `"${name.replace(/"/g, '""')}"` : name;
      expect(result.stdout).toContain(`,${quoted},`);
    }
  });
});

describe.concurrent("--output", () => {
  it("writes the file atomically, picks the format from its ending and fills in {from} and {to}", async () => {
    const out = join(dir, "out");
    mkdirSync(out);
    const result = await report([
      "--from",
      "2026-10-01",
      "--to",
      "2026-10-07",
      "--dims",
      "campaign",
      "-o",
      join(out, "r-{from}-{to}.ndjson"),
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
    expect(readdirSync(out)).toEqual(["r-2026-10-01-2026-10-07.ndjson"]);
    const rows = ndjsonRows(readFileSync(join(out, "r-2026-10-01-2026-10-07.ndjson"), "utf8"));
    expect(rows).toEqual(
      expected({
        fromMs: Date.UTC(2026, 9, 1),
        toMs: Date.UTC(2026, 9, 7, 23, 59, 59),
        metrics: ALL_METRICS,
        entity: "campaign",
      }),
    );
  });

  it("names a cron file by yesterday's date", async () => {
    const out = join(dir, "cron");
    mkdirSync(out);
    const result = await report([
      "--from",
      "yesterday",
      "--to",
      "yesterday",
      "--dims",
      "campaign",
      "-o",
      join(out, "daily-{from}.csv"),
    ]);
    expect(result.code).toBe(0);
    expect(readdirSync(out)).toEqual(["daily-2026-11-01.csv"]);
  });

  it("leaves the old file untouched, and no temporary file, when the export fails", async () => {
    const out = join(dir, "keep");
    mkdirSync(out);
    const target = join(out, "report.csv");
    writeFileSync(target, "old content\n");
    for (const [env, code] of [
      [{ ADREPORT_API_KEY: `adr_${"x".repeat(43)}` }, 3],
      [{ ADREPORT_BASE_URL: broken.url }, 5],
    ] as const) {
      const result = await report(["--from", "2026-10-01", "--to", "2026-10-07", "-o", target, "--retries", "1"], env);
      expect(result.code).toBe(code);
      expect(readFileSync(target, "utf8")).toBe("old content\n");
      expect(readdirSync(out)).toEqual(["report.csv"]);
    }
  });
});

describe.concurrent("exit codes and messages", () => {
  it("2 for a request the contract refuses, before any request is sent", async () => {
    for (const args of [
      ["--metrics", "viewz"],
      ["--dims", "campaign,ad"],
      ["--dims", "keyword,date"],
      ["--dims", "keyword", "--metrics", "conversions"],
      ["--from", "2026-10-10", "--to", "2026-10-01"],
      ["--from", "2026-01-01", "--to", "2026-12-31", "--no-split"],
      ["--granularity", "fortnight"],
      ["--campaign", "x"],
      ["--from", "last tuesday"],
      ["--format", "xml"],
    ]) {
      const result = await report(args, { ADREPORT_BASE_URL: "http://127.0.0.1:9" });
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toMatch(/^adreport: /);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it("names the flag a refusal is about", async () => {
    const result = await report(["--metrics", "viewz"]);
    expect(result.stderr).toContain('adreport: --metrics: unknown name "viewz"');
  });

  it("3 for a key the service refuses, and for no key at all", async () => {
    const bad = await report([], { ADREPORT_API_KEY: `adr_${"x".repeat(43)}` });
    expect(bad.code).toBe(3);
    expect(bad.stderr).toContain("401");
    const none = await report([], { ADREPORT_API_KEY: undefined });
    expect(none.code).toBe(3);
    expect(none.stderr).toContain("adreport: no API key");
  });

  it("4 with the operator request to make, when this host is not whitelisted", async () => {
    const result = await report([], { ADREPORT_API_KEY: ELSEWHERE_KEY });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain("127.0.0.1");
    expect(result.stderr).toContain("hint: ");
    expect(result.stderr).toContain("adreport keys request add-ip");
  });

  it("4 for another advertiser's campaign", async () => {
    const other = lines.find((l) => l.advertiser !== "Acme Outdoor");
    const result = await report(["--campaign", String(other?.campaign_id)]);
    expect(result.code).toBe(4);
  });

  it("5 when the service cannot be reached", async () => {
    const result = await report(["--retries", "1"], { ADREPORT_BASE_URL: "http://127.0.0.1:9" });
    expect(result.code).toBe(5);
    expect(result.stderr).toContain("connection refused");
  });

  it("2 for a 400 from a service that checks what we do not", async () => {
    const server = await failingService(400, "from: too far in the past");
    const result = await report([], { ADREPORT_BASE_URL: server.url });
    await server.close();
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("from: too far in the past");
  });
});

describe.concurrent("a service that fails now and then", () => {
  it("completes with exactly the right rows through 500, 429, 503, dropped connections and delays", async () => {
    const result = await report(
      [
        "--from",
        "2026-10-01",
        "--to",
        "2026-10-31",
        "--dims",
        "ad,date",
        "--format",
        "ndjson",
        "--page-size",
        "20",
        "--retries",
        "8",
      ],
      { ADREPORT_BASE_URL: (await serveDatabase(service.dbPath, { faults: FAULTS })).url },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(ndjsonRows(result.stdout)).toEqual(
      expected({ ...OCTOBER, metrics: ALL_METRICS, entity: "ad", byDate: true }),
    );
  });

  it("fails with exit 5 and writes no file when it never recovers", async () => {
    const target = join(dir, "never.csv");
    const result = await report(["--retries", "2", "-o", target], { ADREPORT_BASE_URL: broken.url });
    expect(result.code).toBe(5);
    expect(result.stderr).toContain("gave up after 3 attempts");
    expect(readdirSync(dir)).not.toContain("never.csv");
  });
});

describe.concurrent("a report whose data changes during the export", () => {
  function changingServer(changesFor: number) {
    let firstPages = 0;
    return startFakeService({
      rows: 30,
      meta: ({ page }) => {
        if (page === 1) firstPages += 1;
        const total = page === 1 || firstPages > changesFor ? 30 : 31;
        return { metrics: ["views"], total, limit: 10, has_more: page < 3 };
      },
      rowsOf: ({ page }) =>
        Array.from({ length: Math.max(0, Math.min(10, 30 - (page - 1) * 10)) }, (_, i) => ({
          dimensions: { campaign_id: (page - 1) * 10 + i + 1, name: "c" },
          metrics: { views: 1 },
        })),
    });
  }

  it("restarts once from page 1 into a file, and completes", async () => {
    const server = await changingServer(1);
    const target = join(dir, "restarted.ndjson");
    const result = await report(["--dims", "campaign", "--metrics", "views", "-o", target, "--page-size", "10"], {
      ADREPORT_BASE_URL: server.url,
    });
    await server.close();
    expect(result.code, result.stderr).toBe(0);
    expect(ndjsonRows(readFileSync(target, "utf8"))).toHaveLength(30);
  });

  it("fails with exit 5 and no file when it keeps changing", async () => {
    const server = await changingServer(99);
    const target = join(dir, "changing.csv");
    const result = await report(["--dims", "campaign", "--metrics", "views", "-o", target, "--page-size", "10"], {
      ADREPORT_BASE_URL: server.url,
    });
    await server.close();
    expect(result.code).toBe(5);
    expect(result.stderr).toContain("changed while it was being fetched");
    expect(readdirSync(dir)).not.toContain("changing.csv");
  });

  it("fails with exit 5 on stdout, saying the rows written are incomplete", async () => {
    const server = await changingServer(99);
    const result = await report(
      ["--dims", "campaign", "--metrics", "views", "--format", "ndjson", "--page-size", "10", "--concurrency", "1"],
      {
        ADREPORT_BASE_URL: server.url,
      },
    );
    await server.close();
    expect(result.code).toBe(5);
    expect(result.stderr).toContain("incomplete");
  });
});

describe.concurrent("ranges over 90 days", () => {
  const demo = {
    ...SMALL_DEMO,
    days: 210,
    advertisers: 1,
    campaignsPerAdvertiser: 2,
    adsPerCampaign: 2,
    keywordsPerAd: 1,
    activity: 0.15,
  };
  let key = "";
  let server: { url: string };
  let long: { lines: RefLine[] };
  beforeAll(async () => {
    const started = await startTestService({ demo, keys: [{ advertiser: "Acme Outdoor", ips: ["127.0.0.1"] }] });
    key = started.keys[0] as string;
    server = started;
    long = started;
  });
  const range = { fromMs: Date.UTC(2026, 3, 10), toMs: Date.UTC(2026, 9, 26, 23, 59, 59) }; // 200 days

  it.each([
    ["no dimensions", [], {}],
    ["campaign", ["--dims", "campaign"], { entity: "campaign" as const }],
    ["keyword", ["--dims", "keyword", "--metrics", "views,spending,clicks"], { entity: "keyword" as const }],
    [
      "campaign,date by week",
      ["--dims", "campaign,date", "--granularity", "week"],
      { entity: "campaign" as const, byDate: true, granularity: "week" as const },
    ],
    ["date by month", ["--dims", "date", "--granularity", "month"], { byDate: true, granularity: "month" as const }],
    ["ad,date by day", ["--dims", "ad,date"], { entity: "ad" as const, byDate: true }],
  ])("merges a 200-day %s report correctly", async (_label, args, shape) => {
    const result = await report(
      ["--from", "2026-04-10", "--to", "2026-10-26", "--format", "ndjson", "--page-size", "50", ...args],
      {
        ADREPORT_API_KEY: key,
        ADREPORT_BASE_URL: server.url,
      },
    );
    expect(result.code, result.stderr).toBe(0);
    const metrics = (args as string[]).includes("keyword") ? ["views", "spending", "clicks"] : ALL_METRICS;
    expect(ndjsonRows(result.stdout)).toEqual(expected({ ...range, metrics, ...shape }, long.lines));
  });
});

describe.concurrent("every other flag", () => {
  const OCT = ["--from", "2026-10-01", "--to", "2026-10-31"];

  it("--verbose logs each request on stderr, without the key", async () => {
    const result = await report([...OCT, "--dims", "campaign", "--verbose", "--page-size", "1"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      /adreport: GET http:\/\/127\.0\.0\.1:\d+\/v1\/report\?from=2026-10-01&.*page=1&limit=1 -> 200 \(\d+ ms\)/,
    );
    expect(result.stderr).toMatch(/page=2&limit=1 -> 200/);
    expect(result.stderr).not.toContain(KEY.slice(4));
  });

  it("--verbose logs retries", async () => {
    const result = await report([...OCT, "--dims", "ad,date", "--page-size", "50", "--verbose", "--retries", "8"], {
      ADREPORT_BASE_URL: (await serveDatabase(service.dbPath, { faults: FAULTS })).url,
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/adreport: retry 1\/8 in [\d.]+ s: /);
  });

  it("--quiet keeps stderr empty", async () => {
    const result = await report([...OCT, "--quiet"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
  });

  it("--delimiter and --bom shape the CSV", async () => {
    const result = await report([...OCT, "--dims", "campaign", "--format", "csv", "--delimiter", "tab", "--bom"]);
    expect(result.stdout.startsWith("\uFEFFcampaign_id\tname\tviews\t")).toBe(true);
  });

  it("--campaign and --ad restrict the report", async () => {
    const ad = lines.find((l) => l.advertiser === "Acme Outdoor" && l.keyword_id === undefined);
    const byCampaign = await report([
      ...OCT,
      "--dims",
      "ad",
      "--campaign",
      String(ad?.campaign_id),
      "--format",
      "ndjson",
    ]);
    const rows = ndjsonRows(byCampaign.stdout);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.dimensions.campaign_id === ad?.campaign_id)).toBe(true);
    const byAd = await report([...OCT, "--dims", "ad", "--ad", String(ad?.ad_id), "--format", "ndjson"]);
    expect(ndjsonRows(byAd.stdout).map((r) => r.dimensions.ad_id)).toEqual([ad?.ad_id]);
  });

  it("--page-size and --concurrency change the paging, not the rows", async () => {
    const base = await report([...OCT, "--dims", "ad,date", "--format", "ndjson"]);
    const paged = await report([
      ...OCT,
      "--dims",
      "ad,date",
      "--format",
      "ndjson",
      "--page-size",
      "7",
      "--concurrency",
      "1",
    ]);
    expect(paged.stdout).toBe(base.stdout);
  });

  it("--timeout gives up on a slow service with exit 5", async () => {
    const slow = await serveDatabase(service.dbPath, { faults: "delay:2s" });
    const result = await report([...OCT, "--timeout", "200ms", "--retries", "1"], { ADREPORT_BASE_URL: slow.url });
    await slow.server.close();
    expect(result.code).toBe(5);
    expect(result.stderr).toContain("no answer within 0.2 s");
  });

  it("--base-url beats ADREPORT_BASE_URL", async () => {
    const result = await report([...OCT, "--base-url", service.url], { ADREPORT_BASE_URL: "http://127.0.0.1:9" });
    expect(result.code).toBe(0);
  });

  it("--api-key works but warns that ps shows it", async () => {
    const result = await report([...OCT, "--api-key", KEY], { ADREPORT_API_KEY: undefined });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("--api-key is visible to other users of this machine");
  });
});

describe.concurrent("interrupted through ctx.onSignal (a signal to the process: test/e2e/report.test.ts)", () => {
  it("ends with 130, leaves the old file as it was and no temporary file", async ({ expect }) => {
    // Page 1 is answered, every later page held unanswered: the export is under way until the signal.
    const held = await startFakeService({ rows: 50, fault: (r) => (r.page > 1 ? "hang" : undefined) });
    const out = join(dir, "interrupted");
    mkdirSync(out);
    const target = join(out, "report.csv");
    writeFileSync(target, "old content\n");
    const started = startInProcess(
      ["report", "--dims", "campaign", "--page-size", "10", "--timeout", "60s", "-o", target],
      { env: { ADREPORT_CONFIG_DIR: configDir, ADREPORT_API_KEY: KEY, ADREPORT_BASE_URL: held.url }, now: NOW },
    );
    await expect
      .poll(() => readdirSync(out).some((f) => f.endsWith(".tmp")) && (held.requests.get(2) ?? 0) > 0, {
        timeout: 20_000,
      })
      .toBe(true);
    expect(started.signalHandlers()).toBeGreaterThan(0);
    started.signal("SIGINT");
    const result = await started.result;
    expect(result.code).toBe(130);
    expect(result.stderr).toContain("interrupted");
    expect(readFileSync(target, "utf8")).toBe("old content\n");
    expect(readdirSync(out)).toEqual(["report.csv"]);
  });
});
