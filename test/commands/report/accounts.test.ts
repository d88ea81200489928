/**
 * `adreport report --profiles/--all-profiles` in this process against one real `serve` holding several
 * advertisers and keys: one key expired, one whitelisted for another address, one profile pointing at a
 * closed port. Outputs are checked against the reference, per profile, in profile order.
 */
import { chmodSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { configDirWith } from "../../helpers/config";
import { startFakeService } from "../../helpers/fake-service";
import { failingService } from "../../helpers/local-server";
import { type RefQuery, referenceRows } from "../../helpers/reference";
import { type InProcessOptions, runInProcess, startInProcess } from "../../helpers/run-cli-in-process";
import { SMALL_DEMO, serveDatabase, startTestService } from "../../helpers/serve";
import type { CliResult } from "../../helpers/spawn-cli";
import { tempDir } from "../../helpers/temp";

const ADVERTISERS = { acme: "Acme Outdoor", cafe: 'Café "Zürich" GmbH', globex: "Globex, Inc." } as const;
const service = await startTestService({
  demo: { ...SMALL_DEMO, advertisers: 3 },
  keys: [
    { advertiser: ADVERTISERS.acme, ips: ["127.0.0.1"] },
    { advertiser: ADVERTISERS.cafe, ips: ["127.0.0.1"] },
    { advertiser: ADVERTISERS.globex, ips: ["127.0.0.1"] },
    { advertiser: ADVERTISERS.globex, ips: ["127.0.0.1"], expiresAt: Date.UTC(2020, 0, 1) / 1000 },
    { advertiser: ADVERTISERS.acme, ips: ["192.0.2.1"] },
  ],
});
const [ACME, CAFE, GLOBEX, EXPIRED, ELSEWHERE] = service.keys as [string, string, string, string, string];
/** acme's answers come late: the accounts after it end first and wait in the spool. */
const slow = await serveDatabase(service.dbPath, { faults: "delay:400ms" });

const ok = (key: string, url = service.url) => ({ "api-key": key, "base-url": url });
const CLOSED = { "api-key": ACME, "base-url": "http://127.0.0.1:9", retries: 0, timeout: "2s" };
const GOOD = configDirWith({}, { acme: ok(ACME), cafe: ok(CAFE), globex: ok(GLOBEX) });
const MIXED = configDirWith(
  {},
  { acme: ok(ACME), globex: ok(GLOBEX), expired: ok(EXPIRED), hooli: ok(ELSEWHERE), closed: CLOSED },
);
const SAME_FAILURE = configDirWith(
  {},
  { expired: ok(EXPIRED), expired2: ok(EXPIRED), acme: ok(ACME), nokey: { "base-url": service.url } },
);
const SLOW_FIRST = configDirWith({}, { acme: ok(ACME, slow.url), cafe: ok(CAFE), globex: ok(GLOBEX) });
const NONE = configDirWith({}, {});
/** Its own server: the refusals check that no request reached it. */
const untouched = await serveDatabase(service.dbPath);
const UNTOUCHED = configDirWith(
  {},
  { acme: ok(ACME, untouched.url), cafe: ok(CAFE, untouched.url), globex: ok(GLOBEX, untouched.url) },
);

const NOW = new Date("2026-11-02T09:30:00Z");
const OCTOBER = { fromMs: Date.UTC(2026, 9, 1), toMs: Date.UTC(2026, 9, 31, 23, 59, 59) };
const RANGE = ["--from", "2026-10-01", "--to", "2026-10-31"];
const METRICS = ["views", "spending", "clicks", "conversions"];

const outputs: CliResult[] = [];
async function report(config: string, args: string[], options: InProcessOptions = {}): Promise<CliResult> {
  const result = await runInProcess(["report", ...args], {
    now: NOW,
    ...options,
    env: { ADREPORT_CONFIG_DIR: config, TMPDIR: tempDir("adreport-spool-"), ...options.env },
  });
  outputs.push(result);
  return result;
}

afterAll(() => {
  for (const output of outputs) {
    for (const key of service.keys) {
      expect(output.stdout).not.toContain(key.slice(4));
      expect(output.stderr).not.toContain(key.slice(4));
    }
  }
});

function expected(profile: keyof typeof ADVERTISERS, query: Partial<RefQuery> = {}) {
  return referenceRows(service.lines, {
    advertiser: ADVERTISERS[profile],
    ...OCTOBER,
    metrics: METRICS,
    entity: "campaign",
    byDate: false,
    granularity: "day",
    ...query,
  });
}

function ndjson(text: string): Array<Record<string, unknown>> {
  return text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

function tagged(profile: keyof typeof ADVERTISERS, query: Partial<RefQuery> = {}) {
  return expected(profile, query).map((row) => ({ profile, ...row }));
}

/** The table's line for a profile: `│ name │ outcome │ rows │ time │`. */
function tableLine(stderr: string, profile: string): string {
  return stderr.split("\n").find((line) => line.startsWith(`│ ${profile} `)) ?? "";
}

describe.concurrent("report over several accounts", () => {
  it("NDJSON: every account's rows, profile first, in profile order then the service's order; the table on stderr", async () => {
    const result = await report(GOOD, ["--all-profiles", ...RANGE, "--dims", "campaign", "-f", "ndjson"]);
    expect(result.code).toBe(0);
    const rows = ndjson(result.stdout);
    expect(rows).toEqual([...tagged("acme"), ...tagged("cafe"), ...tagged("globex")]);
    expect(Object.keys(rows[0] ?? {})[0]).toBe("profile");
    for (const profile of ["acme", "cafe", "globex"] as const) {
      expect(tableLine(result.stderr, profile)).toMatch(
        new RegExp(`│ ${profile}\\s+│ ok\\s+│\\s+${expected(profile).length} │\\s+\\d+\\.\\ds │`),
      );
    }
  });

  it("CSV: a first column profile, one header; --quiet drops the table when every account succeeded", async () => {
    const result = await report(GOOD, [
      "--profiles",
      "globex,acme",
      ...RANGE,
      "--dims",
      "campaign",
      "--metrics",
      "views,clicks",
      "-q",
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const [header, ...lines] = result.stdout.trim().split("\n");
    expect(header).toBe("profile,campaign_id,name,views,clicks");
    const metrics = ["views", "clicks"];
    const reference = (["acme", "globex"] as const).flatMap((profile) =>
      expected(profile, { metrics }).map((row) => ({ profile, row })),
    );
    expect(lines).toHaveLength(reference.length);
    for (const [index, { profile, row }] of reference.entries()) {
      const name = String(row.dimensions.name);
      const quoted = /[",\n]/.test(name) ? `"${name.replaceAll('"', '""')}"` : name;
      expect(lines[index]).toBe(
        `${profile},${row.dimensions.campaign_id},${quoted},${row.metrics.views},${row.metrics.clicks}`,
      );
    }
  });

  it("the table's totals row over every account: counters summed, a ratio computed from the sums", async () => {
    const result = await report(GOOD, [
      "--profiles",
      "acme,globex",
      ...RANGE,
      "--dims",
      "campaign",
      "--metrics",
      "clicks,ctr",
      "-f",
      "table",
      "-q",
    ]);
    expect(result.code).toBe(0);
    const rows = (["acme", "globex"] as const).flatMap((profile) =>
      expected(profile, { metrics: ["views", "clicks"] }),
    );
    const clicks = rows.reduce((sum, row) => sum + Number(row.metrics.clicks), 0);
    const views = rows.reduce((sum, row) => sum + Number(row.metrics.views), 0);
    const footer = result.stdout.split("\n").find((line) => line.includes(`total (${rows.length} rows)`)) ?? "";
    expect(footer).toContain(clicks.toLocaleString("en-US"));
    expect(footer).toContain(`${((clicks / views) * 100).toFixed(2)}%`);
    expect(result.stdout).not.toContain("views");
  });

  it("JSON: one document, meta per profile, rows with their profile", async () => {
    const dir = tempDir();
    const result = await report(GOOD, ["--all-profiles", ...RANGE, "--dims", "campaign", "-o", "all.json"], {
      cwd: dir,
    });
    expect(result.code).toBe(0);
    const document = JSON.parse(readFileSync(join(dir, "all.json"), "utf8"));
    expect(Object.keys(document.meta)).toEqual(["acme", "cafe", "globex"]);
    expect(document.meta.cafe).toMatchObject({ dimensions: ["campaign"], total: expected("cafe").length });
    expect(document.data).toEqual([...tagged("acme"), ...tagged("cafe"), ...tagged("globex")]);
  });

  it("some accounts failed: exit 6, their rows left out of stdout, each failure named in the table", async () => {
    const result = await report(MIXED, ["--all-profiles", ...RANGE, "--dims", "campaign", "-f", "ndjson", "-q"]);
    expect(result.code).toBe(6);
    expect(ndjson(result.stdout)).toEqual([...tagged("acme"), ...tagged("globex")]);
    expect(tableLine(result.stderr, "expired")).toMatch(/│ key refused\s+│\s+0 │/);
    expect(tableLine(result.stderr, "hooli")).toMatch(/│ IP not whitelisted \(the service saw 127\.0\.0\.1\)\s+│/);
    expect(tableLine(result.stderr, "closed")).toMatch(/│ unreachable\s+│/);
    expect(tableLine(result.stderr, "acme")).toMatch(/│ ok\s+│/);
    expect(result.stderr).toMatch(/^adreport: expired: .*expired/m);
    expect(result.stderr).toContain("adreport: partial: 3 of 5 accounts failed: closed, expired, hooli\n");
  });

  it("one --output file and a failed account: nothing written, exit 6; --allow-partial writes the others", async () => {
    const dir = tempDir();
    const args = ["--all-profiles", ...RANGE, "--dims", "campaign", "-o", "all-{from}.ndjson"];
    const refused = await report(MIXED, args, { cwd: dir });
    expect(refused.code).toBe(6);
    expect(refused.stderr).toContain("all-2026-10-01.ndjson was not written: some accounts failed");
    expect(readdirSync(dir)).toEqual([]);
    const partial = await report(MIXED, [...args, "--allow-partial"], { cwd: dir });
    expect(partial.code).toBe(6);
    expect(readdirSync(dir)).toEqual(["all-2026-10-01.ndjson"]);
    expect(ndjson(readFileSync(join(dir, "all-2026-10-01.ndjson"), "utf8"))).toEqual([
      ...tagged("acme"),
      ...tagged("globex"),
    ]);
  });

  it("{profile} in --output: a file per account through the normal export, none for a failed one", async () => {
    const dir = tempDir();
    const result = await report(
      MIXED,
      ["--all-profiles", ...RANGE, "--dims", "campaign", "-o", "{profile}-{to}.ndjson", "--account-concurrency", "5"],
      { cwd: dir },
    );
    expect(result.code).toBe(6);
    expect(readdirSync(dir).sort()).toEqual(["acme-2026-10-31.ndjson", "globex-2026-10-31.ndjson"]);
    expect(ndjson(readFileSync(join(dir, "acme-2026-10-31.ndjson"), "utf8"))).toEqual(expected("acme"));
    expect(ndjson(readFileSync(join(dir, "globex-2026-10-31.ndjson"), "utf8"))).toEqual(expected("globex"));
  });

  it("every account failed for the same reason: that reason's code; for different reasons: 1", async () => {
    const same = await report(SAME_FAILURE, ["--profiles", "expired,expired2", ...RANGE, "-q"]);
    expect(same.code).toBe(3);
    expect(same.stdout).toBe("");
    expect(same.stderr).toContain("adreport: every account failed (key refused): expired, expired2\n");
    const noKey = await report(SAME_FAILURE, ["--profiles", "nokey,expired", ...RANGE, "-q"]);
    expect(noKey.code).toBe(3);
    expect(tableLine(noKey.stderr, "nokey")).toMatch(/│ no key\s+│/);
    expect(noKey.stderr).toContain("every account failed (key refused, no key): expired, nokey");
    const different = await report(MIXED, ["--profiles", "expired,hooli", ...RANGE, "-q"]);
    expect(different.code).toBe(1);
    expect(different.stderr).toContain("every account failed (key refused, IP not whitelisted): expired, hooli");
  });

  it("later accounts wait on disk, not in memory, and the spool is gone afterwards", async () => {
    const spool = tempDir("adreport-spool-");
    const run = startInProcess(["report", "--all-profiles", ...RANGE, "--dims", "campaign", "-f", "ndjson"], {
      now: NOW,
      env: { ADREPORT_CONFIG_DIR: SLOW_FIRST, TMPDIR: spool },
    });
    // cafe and globex end while acme is still waiting for its answer: their rows are in spool files.
    const spooled = () =>
      readdirSync(spool).flatMap((folder) => readdirSync(join(spool, folder)).filter((f) => f.endsWith(".json")));
    await expect.poll(spooled, { timeout: 5000, interval: 20 }).toContain("account-1.json");
    expect(run.stdout()).toBe("");
    const result = await run.result;
    expect(result.code).toBe(0);
    expect(ndjson(result.stdout)).toEqual([...tagged("acme"), ...tagged("cafe"), ...tagged("globex")]);
    expect(readdirSync(spool)).toEqual([]);
  });

  it("SIGTERM stops every account: exit 130, no output file, no spool left, the --summary said", async () => {
    const spool = tempDir("adreport-spool-");
    const dir = tempDir();
    const args = ["report", "--all-profiles", ...RANGE, "--dims", "campaign", "-o", "all.csv", "--summary", "json"];
    const run = startInProcess(args, {
      now: NOW,
      cwd: dir,
      env: { ADREPORT_CONFIG_DIR: SLOW_FIRST, TMPDIR: spool },
    });
    await expect.poll(() => readdirSync(spool).length, { timeout: 5000, interval: 20 }).toBe(1);
    run.signal("SIGTERM");
    const result = await run.result;
    expect(result.code).toBe(130);
    expect(result.stderr).toContain("adreport: interrupted; all.csv was left as it was");
    const summary = JSON.parse(
      result.stderr
        .trim()
        .split("\n")
        .find((l) => l.startsWith("{")) as string,
    );
    expect(summary).toMatchObject({ outcome: "failed", error: "interrupted; all.csv was left as it was" });
    expect(readdirSync(dir)).toEqual([]);
    expect(readdirSync(spool)).toEqual([]);
  });

  it.each([
    [["--profiles", "acme,nope"], 'no profile named "nope" (from --profiles); known: acme, cafe, globex'],
    [["--profiles", "acme", "--profile", "acme"], "--profile and --profiles cannot be combined"],
    [["--profiles", "acme", "--all-profiles"], "--profiles and --all-profiles cannot be combined"],
    [
      ["--all-profiles", "--api-key", "adr_x"],
      "--api-key cannot be used with --all-profiles: a key sees one advertiser account\nhint: drop --api-key: each account sends its profile's own key (adreport keys list)\n",
    ],
    [["--all-profiles", "--account-concurrency", "0"], "expected a whole number from 1 to 32"],
    [["--all-profiles", "--dims", "nope"], "--dims"],
    [["--account-concurrency", "2"], "--account-concurrency goes with --profiles or --all-profiles"],
    [["--allow-partial"], "--allow-partial goes with --profiles or --all-profiles"],
    [["-o", "{profile}.csv"], "{profile} in --output goes with --profiles or --all-profiles"],
  ])("refuses %j with exit 2 before any request", async (args, message) => {
    const result = await report(UNTOUCHED, args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(untouched.accessLog).toEqual([]);
  });

  it("an output that cannot be written stops every account: exit 1, no table, no spool left", async (context) => {
    if (!existsSync("/dev/full")) return context.skip("no /dev/full on this system");
    const spool = tempDir("adreport-spool-");
    const result = await report(
      GOOD,
      ["--all-profiles", ...RANGE, "--dims", "campaign", "-f", "csv", "-o", "/dev/full"],
      {
        env: { TMPDIR: spool },
      },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("adreport: cannot write /dev/full: no space left on device\n");
    expect(readdirSync(spool)).toEqual([]);
  });

  it("{profile} files into a folder that is not there: exit 2 before any request, saying how to make it", async () => {
    const result = await report(UNTOUCHED, ["--all-profiles", "-o", "missing/{profile}.csv"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "adreport: cannot write missing/acme.csv: no such folder\nhint: create it first: mkdir -p missing\n",
    );
    expect(untouched.accessLog).toEqual([]);
  });

  it("--all-profiles with no profile: exit 2, saying how to add one", async () => {
    const result = await report(NONE, ["--all-profiles"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--all-profiles: there are no profiles yet");
    expect(result.stderr).toContain("hint: add one per account with: adreport keys add <profile>");
  });

  it("--verbose: each account's request lines name its profile; flag warnings are printed once", async () => {
    const result = await report(GOOD, [
      "--profiles",
      "acme,cafe",
      ...RANGE,
      "--granularity",
      "week",
      "-f",
      "ndjson",
      "-v",
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^adreport: acme: GET http:\/\/127\.0\.0\.1:\d+\/v1\/report\?/m);
    expect(result.stderr).toMatch(/^adreport: cafe: GET /m);
    expect(result.stderr.match(/--granularity week does nothing without date/g)).toHaveLength(1);
  });

  it("a config file others can read: said once for the run, not once an account", async () => {
    const config = configDirWith({}, { acme: ok(ACME), cafe: ok(CAFE), globex: ok(GLOBEX) });
    chmodSync(join(config, "config.json"), 0o644);
    const result = await report(config, ["--profiles", "acme,cafe,globex", ...RANGE, "--dims", "campaign", "-q"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^adreport: warning: \S+config\.json holds API keys but is mode 0644, readable/);
    expect(result.stderr.match(/readable by others/g)).toHaveLength(1);
  });

  it("ADREPORT_API_KEY is not one account's key for all: ignored with a warning", async () => {
    const result = await report(GOOD, ["--profiles", "cafe", ...RANGE, "--dims", "campaign", "-f", "ndjson"], {
      env: { ADREPORT_API_KEY: ACME },
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("ADREPORT_API_KEY is ignored: each account uses its profile's key");
    expect(ndjson(result.stdout)).toEqual(tagged("cafe"));
  });
});

describe("rows as the service sent them", () => {
  it("NDJSON keeps each row's bytes after the profile, exactly as one account's export writes them", async () => {
    const args = [...RANGE, "--dims", "campaign,date", "-f", "ndjson"];
    const alone = await report(GOOD, ["--profile", "cafe", ...args]);
    const merged = await report(GOOD, ["--profiles", "cafe", ...args]);
    expect(merged.code).toBe(0);
    const expectedLines = alone.stdout
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => `{"profile":"cafe",${l.slice(1)}`);
    expect(merged.stdout).toBe(`${expectedLines.join("\n")}\n`);
  });

  it("a profile field the service sends itself gives way to the profile's name", async () => {
    const own = await startFakeService({
      rows: 2,
      rowsOf: () => [
        { profile: "evil", dimensions: { campaign_id: 1, name: "a" }, metrics: { views: 1, clicks: 1 } },
        { dimensions: { campaign_id: 2, name: "profile" }, metrics: { views: 2, clicks: 2 } },
      ],
    });
    const config = configDirWith({}, { acme: ok(ACME, own.url) });
    const result = await report(config, ["--all-profiles", ...RANGE, "--dims", "campaign", "-f", "ndjson"]);
    expect(result.code).toBe(0);
    expect(ndjson(result.stdout)).toEqual([
      { profile: "acme", dimensions: { campaign_id: 1, name: "a" }, metrics: { views: 1, clicks: 1 } },
      { profile: "acme", dimensions: { campaign_id: 2, name: "profile" }, metrics: { views: 2, clicks: 2 } },
    ]);
    const csv = await report(config, ["--all-profiles", ...RANGE, "--dims", "campaign", "-f", "csv", "-q"]);
    expect(csv.stdout).toBe("profile,campaign_id,name,views,clicks\nacme,1,a,1,1\nacme,2,profile,2,2\n");
  });
});

describe("report over accounts against services that misbehave", () => {
  it("data changed, a body cut off, no answer, a 503: each its outcome; the good account's rows kept with --allow-partial", async () => {
    const changing = await startFakeService({ rows: 10, meta: (r) => ({ total: r.page === 1 ? 10 : 12 }) });
    const cutOff = await startFakeService({ rows: 10, fault: () => "reset-body" });
    const silent = await startFakeService({ rows: 10, fault: () => "hang" });
    const unavailable = await failingService(503, "down for maintenance");
    const quick = { retries: 0, timeout: "1s" };
    const config = configDirWith(
      {},
      {
        acme: ok(ACME),
        changing: { ...ok(ACME, changing.url), ...quick },
        cutoff: { ...ok(ACME, cutOff.url), ...quick },
        silent: { ...ok(ACME, silent.url), ...quick },
        unavailable: { ...ok(ACME, unavailable.url), ...quick },
      },
    );
    const dir = tempDir();
    const result = await report(
      config,
      ["--all-profiles", ...RANGE, "--dims", "campaign", "--page-size", "5", "-o", "all.ndjson", "--allow-partial"],
      { cwd: dir, env: { TMPDIR: dir } },
    );
    expect(result.code).toBe(6);
    expect(tableLine(result.stderr, "acme")).toMatch(/│ ok\s+│/);
    expect(tableLine(result.stderr, "changing")).toMatch(/│ data changed\s+│/);
    expect(tableLine(result.stderr, "cutoff")).toMatch(/│ unreachable\s+│/);
    expect(tableLine(result.stderr, "silent")).toMatch(/│ unreachable\s+│/);
    expect(tableLine(result.stderr, "unavailable")).toMatch(/│ service failed\s+│/);
    expect(result.stderr).toContain("adreport: partial: 4 of 5 accounts failed: changing, cutoff, silent, unavailable");
    expect(readdirSync(dir)).toEqual(["all.ndjson"]);
    expect(ndjson(readFileSync(join(dir, "all.ndjson"), "utf8"))).toEqual(tagged("acme"));
  });
});
