/**
 * `report --tz` and `--compare` in this process against a real `serve` over a SQLite file loaded with hourly
 * facts made here, checked against sums computed in this file from those facts: local days found with
 * Intl's own date text (not adreport's time-zone code), periods and presence decided by the data's shape.
 * Campaign 2 starts on 2026-06-01 and campaign 3 ends on 2026-01-01, so ranges around them have entities
 * in one period only.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { issueKey, loadNdjsonFile, openForWriting } from "../../../src/server";
import { configDirWith } from "../../helpers/config";
import { runInProcess } from "../../helpers/run-cli-in-process";
import { serveDatabase } from "../../helpers/serve";
import type { CliResult } from "../../helpers/spawn-cli";
import { tempDir } from "../../helpers/temp";

interface Fact {
  campaignId: number;
  adId: number;
  hourMs: number;
  views: number;
  clicks: number;
  botClicks: number;
  spendingMicros: number;
  conversions: number;
}

const HOUR = 3_600_000;
const DATA_FROM = Date.UTC(2025, 1, 1);
const DATA_TO = Date.UTC(2026, 10, 10);
const ADS = [
  { campaignId: 1, adId: 11, from: DATA_FROM, to: DATA_TO },
  { campaignId: 1, adId: 12, from: DATA_FROM, to: DATA_TO },
  { campaignId: 2, adId: 21, from: Date.UTC(2026, 5, 1), to: DATA_TO },
  { campaignId: 3, adId: 31, from: DATA_FROM, to: Date.UTC(2026, 0, 1) },
];

/** A small deterministic generator (mulberry32): the same facts on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function makeFacts(): Fact[] {
  const next = random(17);
  const facts: Fact[] = [];
  for (let hourMs = DATA_FROM; hourMs < DATA_TO; hourMs += HOUR) {
    for (const ad of ADS) {
      if (hourMs < ad.from || hourMs >= ad.to || next() < 0.6) continue;
      const views = 1 + Math.floor(next() * 300);
      const clicks = Math.floor(next() * Math.min(views, 40));
      const botClicks = Math.floor(next() * (clicks / 4));
      facts.push({
        campaignId: ad.campaignId,
        adId: ad.adId,
        hourMs,
        views,
        clicks,
        botClicks,
        spendingMicros: Math.floor(next() * 5_000_000),
        conversions: Math.floor(next() * 3),
      });
    }
  }
  return facts;
}

const facts = makeFacts();
const dir = tempDir();
const dbPath = join(dir, "tz.db");
const ndjson = join(dir, "facts.ndjson");
writeFileSync(
  ndjson,
  facts
    .map((f) =>
      JSON.stringify({
        advertiser: "Acme Outdoor",
        campaign_id: f.campaignId,
        campaign: `Campaign ${f.campaignId}`,
        ad_id: f.adId,
        ad: `Ad ${f.adId}`,
        hour: new Date(f.hourMs).toISOString().replace(".000Z", "Z"),
        views: f.views,
        clicks: f.clicks,
        bot_clicks: f.botClicks,
        spending: f.spendingMicros / 1e6,
        conversions: f.conversions,
      }),
    )
    .join("\n"),
);
const db = openForWriting(dbPath, { create: true });
await loadNdjsonFile(db, ndjson);
const KEY = issueKey(db, { advertiser: "Acme Outdoor", ips: ["127.0.0.1"], now: Math.floor(Date.now() / 1000) }).key;
db.close();
const service = await serveDatabase(dbPath);
const NOW = new Date("2026-11-09T09:30:00Z");

const outputs: CliResult[] = [];
afterAll(() => {
  for (const output of outputs) {
    expect(output.stdout).not.toContain(KEY.slice(4));
    expect(output.stderr).not.toContain(KEY.slice(4));
  }
});

async function report(args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  const result = await runInProcess(["report", "-q", ...args], {
    env: {
      ADREPORT_CONFIG_DIR: join(dir, "no-config"),
      ADREPORT_API_KEY: KEY,
      ADREPORT_BASE_URL: service.url,
      ...env,
    },
    now: NOW,
  });
  outputs.push(result);
  return result;
}

// ---- The reference: local days from Intl's formatted date, weeks and months from that date's text. ----

const dayTexts = new Map<string, Intl.DateTimeFormat>();
/** `YYYY-MM-DD` of the instant in the zone, as Intl writes it (en-CA writes ISO dates). */
function localDate(ms: number, zone: string): string {
  let format = dayTexts.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" });
    dayTexts.set(zone, format);
  }
  return format.format(new Date(ms));
}

function bucketOf(date: string, unit: "day" | "week" | "month"): string {
  if (unit === "day") return date;
  if (unit === "month") return `${date.slice(0, 7)}-01`;
  const ms = Date.parse(`${date}T00:00:00Z`);
  const monday = ms - ((new Date(ms).getUTCDay() + 6) % 7) * 86_400_000;
  return new Date(monday).toISOString().slice(0, 10);
}

/** The first UTC hour whose local date is `date`: where the local day starts. */
function localDayStartMs(date: string, zone: string): number {
  for (let ms = Date.parse(`${date}T00:00:00Z`) - 16 * HOUR; ; ms += HOUR) {
    if (localDate(ms, zone) === date) return ms;
  }
}

/** The first and last millisecond of local dates `from` to `to`, inclusive. */
function localRange(from: string, to: string, zone: string): { fromMs: number; toMs: number } {
  const after = new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return { fromMs: localDayStartMs(from, zone), toMs: localDayStartMs(after, zone) - 1 };
}

interface Sums {
  views: number;
  spendingMicros: number;
  clicks: number;
  conversions: number;
}

function emptySums(): Sums {
  return { views: 0, spendingMicros: 0, clicks: 0, conversions: 0 };
}

function add(sums: Sums, f: Fact): void {
  sums.views += f.views;
  sums.spendingMicros += f.spendingMicros;
  sums.clicks += f.clicks - f.botClicks;
  sums.conversions += f.conversions;
}

/** Sums per campaign and local bucket (or per campaign alone with unit undefined), in the contract's order. */
function referenceByCampaign(
  range: { fromMs: number; toMs: number },
  zone: string,
  unit: "day" | "week" | "month" | undefined,
): Array<{ campaignId: number; bucket: string; sums: Sums }> {
  const groups = new Map<string, { campaignId: number; bucket: string; sums: Sums }>();
  for (const f of facts) {
    if (f.hourMs < range.fromMs || f.hourMs > range.toMs) continue;
    const bucket = unit === undefined ? "" : bucketOf(localDate(f.hourMs, zone), unit);
    const key = `${f.campaignId}|${bucket}`;
    let group = groups.get(key);
    if (!group) {
      group = { campaignId: f.campaignId, bucket, sums: emptySums() };
      groups.set(key, group);
    }
    add(group.sums, f);
  }
  return [...groups.values()].sort((a, b) => a.campaignId - b.campaignId || (a.bucket < b.bucket ? -1 : 1));
}

function csvLinesOf(rows: Array<{ campaignId: number; bucket: string; sums: Sums }>): string[] {
  return rows.map(
    ({ campaignId, bucket, sums }) =>
      `${campaignId},Campaign ${campaignId},${bucket},${sums.views},${sums.spendingMicros / 1e6},${sums.clicks},${sums.conversions}`,
  );
}

function csvBody(stdout: string): string[] {
  return stdout.trim().split("\n").slice(1);
}

const DST_WEEKS = [
  { zone: "Europe/Berlin", from: "2026-03-23", to: "2026-03-29", hours: { "2026-03-29": 23 } },
  { zone: "Europe/Berlin", from: "2026-10-19", to: "2026-10-25", hours: { "2026-10-25": 25 } },
  { zone: "America/Los_Angeles", from: "2026-03-02", to: "2026-03-08", hours: { "2026-03-08": 23 } },
  { zone: "America/Los_Angeles", from: "2026-10-26", to: "2026-11-01", hours: { "2026-11-01": 25 } },
] as const;

describe.concurrent("--tz", () => {
  for (const week of DST_WEEKS) {
    it(`sums a DST-change week into ${week.zone}'s days (${week.from} to ${week.to})`, async () => {
      const result = await report([
        ...["--from", week.from, "--to", week.to, "--dims", "campaign,date", "--tz", week.zone, "-f", "csv"],
      ]);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      const range = localRange(week.from, week.to, week.zone);
      expect(csvBody(result.stdout)).toEqual(csvLinesOf(referenceByCampaign(range, week.zone, "day")));
      // The DST day is one row per campaign, built from its 23 or 25 hours.
      for (const [day, hours] of Object.entries(week.hours)) {
        const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
        expect((localDayStartMs(next, week.zone) - localDayStartMs(day, week.zone)) / HOUR).toBe(hours);
        const campaigns = new Set(facts.filter((f) => localDate(f.hourMs, week.zone) === day).map((f) => f.campaignId));
        expect(csvBody(result.stdout).filter((line) => line.split(",")[2] === day)).toHaveLength(campaigns.size);
      }
    });
  }

  it("gives JSON dates as the epoch second each local day starts, and says the zone in meta", async () => {
    const week = DST_WEEKS[3];
    const result = await report([
      ...["--from", week.from, "--to", week.to, "--dims", "date", "--tz", week.zone, "-f", "json"],
    ]);
    expect(result.code).toBe(0);
    const body = JSON.parse(result.stdout) as {
      meta: Record<string, unknown>;
      data: Array<{ dimensions: { date: number }; metrics: Record<string, number> }>;
    };
    expect(body.meta).toMatchObject({ tz: "America/Los_Angeles", granularity: "daily", total: 7 });
    const days = ["2026-10-26", "2026-10-27", "2026-10-28", "2026-10-29", "2026-10-30", "2026-10-31", "2026-11-01"];
    expect(body.data.map((row) => row.dimensions.date)).toEqual(
      days.map((day) => localDayStartMs(day, week.zone) / 1000),
    );
    const range = localRange(week.from, week.to, week.zone);
    const total = emptySums();
    for (const f of facts) if (f.hourMs >= range.fromMs && f.hourMs <= range.toMs) add(total, f);
    expect(body.data.reduce((sum, row) => sum + (row.metrics.clicks ?? 0), 0)).toBe(total.clicks);
  });

  it("builds ISO weeks (from Monday) and months in the zone", async () => {
    for (const unit of ["week", "month"] as const) {
      const result = await report([
        ...["--from", "2026-09-01", "--to", "2026-11-08", "--dims", "campaign,date", "--granularity", unit],
        ...["--tz", "America/Los_Angeles", "-f", "csv"],
      ]);
      expect(result.code).toBe(0);
      const range = localRange("2026-09-01", "2026-11-08", "America/Los_Angeles");
      expect(csvBody(result.stdout)).toEqual(csvLinesOf(referenceByCampaign(range, "America/Los_Angeles", unit)));
    }
  });

  it("shows hours with the zone's offset, across the change", async () => {
    const result = await report([
      ...["--from", "2026-03-29", "--to", "2026-03-29", "--dims", "date", "--granularity", "hour"],
      ...["--tz", "Europe/Berlin", "-f", "csv", "--metrics", "views"],
    ]);
    expect(result.code).toBe(0);
    // Berlin is +01:00 until 01:00Z on 2026-03-29, then +02:00: 02:00 local does not exist that day.
    const change = Date.UTC(2026, 2, 29, 1);
    const text = (ms: number) => {
      const offset = ms < change ? 1 : 2;
      return `${new Date(ms + offset * HOUR).toISOString().slice(0, 19)}+0${offset}:00`;
    };
    const hours = [...new Set(facts.map((f) => f.hourMs))].filter(
      (ms) => ms >= Date.UTC(2026, 2, 28, 23) && ms < Date.UTC(2026, 2, 29, 22),
    );
    const dates = csvBody(result.stdout).map((line) => line.split(",")[0]);
    expect(dates).toEqual(hours.map(text));
    expect(dates.some((d) => d?.endsWith("+01:00"))).toBe(true);
    expect(dates.some((d) => d?.endsWith("+02:00"))).toBe(true);
    expect(dates.some((d) => d?.startsWith("2026-03-29T02:"))).toBe(false);
  });

  it("reads today, yesterday and -Nd as the zone's days", async () => {
    // NOW is 2026-11-09T09:30Z, which in Pacific/Pago_Pago (-11) is still 2026-11-08: yesterday is 11-07.
    const result = await report(
      ["--from", "-1d", "--to", "yesterday", "--dims", "date", "--tz", "Pacific/Pago_Pago", "-f", "csv"],
      {},
    );
    expect(result.code).toBe(0);
    expect(csvBody(result.stdout).map((line) => line.split(",")[0])).toEqual(["2026-11-07"]);
  });

  it("takes the zone from the config file, and a profile's over it, and the flag over both", async () => {
    // A named profile sends its own key (config/credentials.ts): berlin holds the same one.
    const configDir = configDirWith({ tz: "America/Los_Angeles" }, { berlin: { tz: "Europe/Berlin", "api-key": KEY } });
    const args = ["--from", "2026-10-25", "--to", "2026-10-25", "--dims", "date", "-f", "csv", "--metrics", "views"];
    const viewsOn = (zone: string) => {
      const range = localRange("2026-10-25", "2026-10-25", zone);
      return referenceByCampaign(range, zone, undefined).reduce((sum, g) => sum + g.sums.views, 0);
    };
    const fromFile = await report(args, { ADREPORT_CONFIG_DIR: configDir });
    expect(fromFile.stdout).toBe(`date,views\n2026-10-25,${viewsOn("America/Los_Angeles")}\n`);
    const fromProfile = await report([...args, "--profile", "berlin"], {
      ADREPORT_CONFIG_DIR: configDir,
      ADREPORT_API_KEY: undefined,
    });
    expect(fromProfile.stdout).toBe(`date,views\n2026-10-25,${viewsOn("Europe/Berlin")}\n`);
    const fromFlag = await report([...args, "--profile", "berlin", "--tz", "UTC"], {
      ADREPORT_CONFIG_DIR: configDir,
      ADREPORT_API_KEY: undefined,
    });
    expect(fromFlag.stdout).toBe(`date,views\n2026-10-25,${viewsOn("UTC")}\n`);
    const badFile = configDirWith({ tz: "Mars/Olympus_Mons" });
    const refused = await report(args, { ADREPORT_CONFIG_DIR: badFile });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("Mars/Olympus_Mons");
  });

  it("refuses a zone whose offset is not a whole hour, and a zone it does not know, with exit 2", async () => {
    for (const zone of ["Asia/Kolkata", "Australia/Adelaide", "Asia/Kathmandu"]) {
      const result = await report(["--dims", "date", "--tz", zone]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toMatch(
        new RegExp(
          `^adreport: --tz: ${zone} is [+-]\\d\\d:\\d\\d from UTC on .*not a whole hour, so its days cannot be built from the service's hourly buckets\\n`,
        ),
      );
    }
    const fromProfile = await report(["--dims", "date", "--profile", "india"], {
      ADREPORT_CONFIG_DIR: configDirWith({}, { india: { tz: "Asia/Kolkata", "api-key": KEY } }),
      ADREPORT_API_KEY: undefined,
    });
    expect(fromProfile.code).toBe(2);
    expect(fromProfile.stderr).toMatch(/^adreport: the tz setting \(profile\): Asia\/Kolkata is \+05:30 from UTC/);
    const unknown = await report(["--tz", "Europe/Atlantis"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^adreport: --tz: "Europe\/Atlantis" is not a time zone/);
  });

  it("fetches a range over 90 local days in windows and still sums exact days", async () => {
    // 2026-07-01 to 2026-10-31 in Berlin: 123 days, across the October change.
    const result = await report([
      ...["--from", "2026-07-01", "--to", "2026-10-31", "--dims", "campaign,date", "--tz", "Europe/Berlin"],
      ...["-f", "csv"],
    ]);
    expect(result.code).toBe(0);
    const range = localRange("2026-07-01", "2026-10-31", "Europe/Berlin");
    expect(csvBody(result.stdout)).toEqual(csvLinesOf(referenceByCampaign(range, "Europe/Berlin", "day")));
  });
});

// ---- --compare ----

interface ComparedRow {
  dimensions: Record<string, unknown>;
  metrics: Record<string, number | null>;
}

const COUNTERS = ["views", "spending", "clicks", "conversions"] as const;

function value(sums: Sums | undefined, counter: (typeof COUNTERS)[number]): number | null {
  if (!sums) return null;
  return counter === "spending" ? sums.spendingMicros / 1e6 : sums[counter];
}

/** The rows --compare should give, per campaign: both periods' sums, from the facts. */
function expectedComparison(now: { fromMs: number; toMs: number }, before: { fromMs: number; toMs: number }) {
  const current = new Map(referenceByCampaign(now, "UTC", undefined).map((g) => [g.campaignId, g.sums]));
  const previous = new Map(referenceByCampaign(before, "UTC", undefined).map((g) => [g.campaignId, g.sums]));
  const ids = [...new Set([...current.keys(), ...previous.keys()])].sort((a, b) => a - b);
  return ids.map((id) => {
    const metrics: Record<string, number | null> = {};
    for (const counter of COUNTERS) {
      const a = value(current.get(id), counter);
      const b = value(previous.get(id), counter);
      metrics[counter] = a;
      metrics[`${counter}_prev`] = b;
      metrics[`${counter}_change`] = a === null || b === null || b === 0 ? null : (a - b) / b;
    }
    return { dimensions: { campaign_id: id, name: `Campaign ${id}` }, metrics };
  });
}

function expectRowsClose(actual: ComparedRow[], expected: ComparedRow[]): void {
  expect(actual.map((r) => r.dimensions)).toEqual(expected.map((r) => r.dimensions));
  actual.forEach((row, i) => {
    const want = (expected[i] as ComparedRow).metrics;
    expect(Object.keys(row.metrics)).toEqual(Object.keys(want));
    for (const [name, v] of Object.entries(want)) {
      if (v === null) expect(row.metrics[name], name).toBeNull();
      else expect(row.metrics[name], name).toBeCloseTo(v, 9);
    }
  });
}

const utcDay = (text: string) => Date.parse(`${text}T00:00:00Z`);
const utcRange = (from: string, to: string) => ({ fromMs: utcDay(from), toMs: utcDay(to) + 86_400_000 - 1 });

describe.concurrent("--compare", () => {
  it("previous: over 90 days (both periods split), with campaigns in one period only", async () => {
    // 2026-02-01 to 2026-06-30 (150 days) against 2025-09-04 to 2026-01-31: campaign 2 is only in the
    // first, campaign 3 only in the second.
    const result = await report([
      ...["--from", "2026-02-01", "--to", "2026-06-30", "--dims", "campaign", "--compare", "previous"],
      ...["-f", "ndjson"],
    ]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const rows = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as ComparedRow);
    const expected = expectedComparison(utcRange("2026-02-01", "2026-06-30"), utcRange("2025-09-04", "2026-01-31"));
    expect(expected.map((r) => r.dimensions.campaign_id)).toEqual([1, 2, 3]);
    expect(expected[1]?.metrics.views_prev).toBeNull();
    expect(expected[2]?.metrics.views).toBeNull();
    expectRowsClose(rows, expected);
  });

  it("year: the same dates a year earlier, over 90 days, with a campaign only in the earlier year", async () => {
    const result = await report([
      ...["--from", "2026-02-01", "--to", "2026-05-31", "--dims", "campaign", "--compare", "year", "-f", "json"],
    ]);
    expect(result.code).toBe(0);
    const body = JSON.parse(result.stdout) as { meta: Record<string, unknown>; data: ComparedRow[] };
    expect(body.meta).toMatchObject({
      compare: "year",
      previous: { from: "2025-02-01T00:00:00Z", to: "2025-05-31T23:59:59Z" },
      metrics: COUNTERS.flatMap((c) => [c, `${c}_prev`, `${c}_change`]),
    });
    const expected = expectedComparison(utcRange("2026-02-01", "2026-05-31"), utcRange("2025-02-01", "2025-05-31"));
    expect(expected.map((r) => [r.dimensions.campaign_id, r.metrics.views === null])).toEqual([
      [1, false],
      [3, true],
    ]);
    expectRowsClose(body.data, expected);
  });

  it("matches date buckets by position, in the zone, across a DST change", async () => {
    // Berlin, 2026-10-19 to 2026-10-25 (the 25-hour day last) against the 7 local days before.
    const zone = "Europe/Berlin";
    const result = await report([
      ...["--from", "2026-10-19", "--to", "2026-10-25", "--dims", "campaign,date", "--tz", zone],
      ...["--compare", "previous", "--metrics", "clicks", "-f", "csv"],
    ]);
    expect(result.code).toBe(0);
    const now = referenceByCampaign(localRange("2026-10-19", "2026-10-25", zone), zone, "day");
    const before = referenceByCampaign(localRange("2026-10-12", "2026-10-18", zone), zone, "day");
    const position = (bucket: string, first: string) => (utcDay(bucket) - utcDay(first)) / 86_400_000;
    const lines = now.map((row) => {
      const match = before.find(
        (b) =>
          b.campaignId === row.campaignId && position(b.bucket, "2026-10-12") === position(row.bucket, "2026-10-19"),
      );
      const prev = match?.sums.clicks;
      const change = prev === undefined || prev === 0 ? "" : String((row.sums.clicks - prev) / prev);
      return `${row.campaignId},Campaign ${row.campaignId},${row.bucket},${row.sums.clicks},${prev ?? ""},${change}`;
    });
    expect(result.stdout.split("\n")[0]).toBe("campaign_id,name,date,clicks,clicks_prev,clicks_change");
    expect(csvBody(result.stdout)).toEqual(lines);
    const json = await report([
      ...["--from", "2026-10-19", "--to", "2026-10-25", "--dims", "campaign", "--tz", zone],
      ...["--compare", "previous", "--metrics", "clicks", "-f", "json"],
    ]);
    expect(JSON.parse(json.stdout).meta).toMatchObject({
      tz: zone,
      compare: "previous",
      previous: { from: "2026-10-12T00:00:00+02:00", to: "2026-10-18T23:59:59+02:00" },
    });
  });

  it("shows a bucket only the earlier period has at its place in the current one, the current side empty", async () => {
    // Campaign 3 ends on 2026-01-01: 2026-01-01 to 2026-01-03 has none of it, the 3 days before have it.
    const result = await report([
      ...["--from", "2026-01-01", "--to", "2026-01-03", "--dims", "campaign,date", "--campaign", "3"],
      ...["--compare", "previous", "--metrics", "views", "-f", "csv"],
    ]);
    expect(result.code).toBe(0);
    const before = referenceByCampaign(utcRange("2025-12-29", "2025-12-31"), "UTC", "day").filter(
      (b) => b.campaignId === 3,
    );
    expect(before).toHaveLength(3);
    expect(csvBody(result.stdout)).toEqual(before.map((b, i) => `3,Campaign 3,2026-01-0${i + 1},,${b.sums.views},`));
    const table = await report([
      ...["--from", "2026-01-01", "--to", "2026-01-03", "--dims", "campaign,date", "--campaign", "3"],
      ...["--compare", "previous", "--metrics", "views", "-f", "table"],
    ]);
    expect(table.stdout).toMatch(/│ 2026-01-01 │\s+- │/);
  });

  it("previous by month: whole months against the months just before, not as many days back", async () => {
    const result = await report([
      ...["--from", "2026-07-01", "--to", "2026-08-31", "--dims", "date", "--granularity", "month"],
      ...["--compare", "previous", "--metrics", "clicks", "-f", "csv"],
    ]);
    expect(result.code).toBe(0);
    const months = (from: string, to: string) =>
      referenceByCampaign(utcRange(from, to), "UTC", "month").reduce<Record<string, number>>((sums, g) => {
        sums[g.bucket] = (sums[g.bucket] ?? 0) + g.sums.clicks;
        return sums;
      }, {});
    const now = months("2026-07-01", "2026-08-31");
    const before = months("2026-05-01", "2026-06-30");
    const line = (month: string, prev: string) => {
      const a = now[month] as number;
      const b = before[prev] as number;
      return `${month},${a},${b},${(a - b) / b}`;
    };
    expect(csvBody(result.stdout)).toEqual([line("2026-07-01", "2026-05-01"), line("2026-08-01", "2026-06-01")]);
  });

  it("refuses an unknown period with exit 2", async () => {
    const result = await report(["--compare", "week"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("previous, year");
  });
});
