/**
 * `--incremental --lookback auto` against a real serve whose rows are restated with the operator's load
 * (test/helpers/demo-service.ts): a day whose totals moved is fetched again, one whose totals did not is
 * not, rows moved between campaigns with the day's totals kept are caught by the check's digest, and every
 * decision is in the job's ledger.
 */
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { at, newService } from "../../helpers/incremental";
import type { RefLine } from "../../helpers/reference";

const AD_HOURLY = [
  "report",
  "--dims",
  "ad,date",
  "--granularity",
  "hour",
  "-o",
  "out/{date}.csv",
  "--incremental",
  "--lookback",
  "auto",
  // 100 rows a page: the demo's 48 rows of a day, fetched for 9 days, cost more pages than the check.
  "--page-size",
  "100",
];
const CAMPAIGN = ["report", "--dims", "campaign,date", "-o", "out/{date}.csv", "--incremental", "--lookback", "auto"];

function stateOf(dir: string) {
  const folder = join(dir, "config", "state");
  const name = readdirSync(folder).find((n) => /^[0-9a-f]{8}\.json$/.test(n)) as string;
  return JSON.parse(readFileSync(join(folder, name), "utf8"));
}

const summaryOf = (stderr: string) => JSON.parse(stderr.trim().split("\n").at(-1) as string);
const micros = (n: number) => Math.round(n * 1e6) / 1e6;

type Service = Awaited<ReturnType<typeof newService>>;

/** Moves 50 views, a click and 0.25 of spending on `day` from one campaign's ad to another's: the day's totals stay. */
async function moveBetweenCampaigns(service: Service["service"], load: Service["load"], day: string) {
  const ofDay = service.lines.filter(
    (l) => l.hour.startsWith(day) && l.keyword_id === undefined && l.advertiser === "Acme Outdoor",
  );
  const from = ofDay.find((l) => l.views >= 50 && l.clicks - l.bot_clicks >= 1 && l.spending >= 0.25) as RefLine;
  const to = ofDay.find((l) => l.campaign_id !== from.campaign_id) as RefLine;
  expect(from && to).toBeTruthy();
  await load([
    { ...from, views: from.views - 50, clicks: from.clicks - 1, spending: micros(from.spending - 0.25) },
    { ...to, views: to.views + 50, clicks: to.clicks + 1, spending: micros(to.spending + 0.25) },
  ]);
}

describe("report --incremental --lookback auto against serve, rows restated with serve load", () => {
  it("an hourly ad job fetches again the day whose totals moved and the day whose rows moved between campaigns, not the others", async () => {
    const { dir, service, run, restate, load, anHourOf } = await newService();
    mkdirSync(join(dir, "out"));
    const first = await run([...AD_HOURLY, "--start", "2026-10-18", "--summary", "json"], at("2026-10-26"));
    expect(first.code, first.stderr).toBe(0);
    expect(stateOf(dir).autoLookback).toMatchObject({ runs: 1, learnedHorizonDays: null });
    const untouched = readFileSync(join(dir, "out", "2026-10-24.csv"), "utf8");

    await restate(anHourOf("2026-10-20"));
    await moveBetweenCampaigns(service, load, "2026-10-22");

    const again = await run([...AD_HOURLY, "--summary", "json"], at("2026-10-27"));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/^adreport: 2026-10-20: spending .* -> /m);
    expect(again.stderr).toMatch(/^adreport: 2026-10-22: rows changed, totals the same$/m);
    const state = stateOf(dir);
    const decision = state.autoLookback.decisions.at(-1);
    expect(decision).toMatchObject({ mode: "checked", newDays: 1, end: "2026-10-26" });
    // By campaign: the ads' totals (its ledger's rows a day at most, before any check) would take pages.
    expect(decision.checked).toMatchObject({ from: "2026-10-18", to: "2026-10-25", by: "campaign,date", requests: 1 });
    const refetched = Object.fromEntries(decision.refetched.map((r: { day: string; why: string }) => [r.day, r.why]));
    expect(refetched["2026-10-20"]).toMatch(/^totals moved: .*spending/);
    expect(refetched["2026-10-22"]).toBe("rows moved between campaigns, totals the same");
    for (const day of ["2026-10-18", "2026-10-19", "2026-10-23", "2026-10-24", "2026-10-25"]) {
      expect(refetched[day], day).toBeUndefined();
    }
    // The restatement 6 days before the run's last day is what it learned.
    expect(state.autoLookback.learnedHorizonDays).toBe(6);
    expect(readFileSync(join(dir, "out", "2026-10-24.csv"), "utf8")).toBe(untouched);
    // Each day file is what a plain export of that day gives now.
    for (const day of ["2026-10-20", "2026-10-22", "2026-10-26"]) {
      const plain = await run(
        ["report", "--dims", "ad,date", "--granularity", "hour", "--from", day, "--to", day, "-o", "-"],
        at("2026-10-27"),
      );
      expect(readFileSync(join(dir, "out", `${day}.csv`), "utf8"), day).toBe(plain.stdout);
    }
  });

  it("a daily campaign job, whose totals by campaign are its rows, fetches its checked days whole: a move between campaigns is caught", async () => {
    const { dir, service, run, load, plainDay } = await newService();
    mkdirSync(join(dir, "out"));
    expect((await run([...CAMPAIGN, "--start", "2026-09-30"], at("2026-10-26"))).code).toBe(0);
    await moveBetweenCampaigns(service, load, "2026-10-05");
    const again = await run([...CAMPAIGN, "--summary", "json"], at("2026-10-27"));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/^adreport: 2026-10-05: rows changed, totals the same$/m);
    expect(readFileSync(join(dir, "out", "2026-10-05.csv"), "utf8")).toBe(
      await plainDay("2026-10-05", at("2026-10-27")),
    );
    const decision = stateOf(dir).autoLookback.decisions.at(-1);
    expect(decision).toMatchObject({ mode: "fetched in full" });
    expect(decision.checked).toMatchObject({
      from: "2026-09-30",
      deep: true,
      by: "fetched whole, no dearer than their totals",
    });
  });

  it("a run where nothing changed fetches the new day only, after one totals request", async () => {
    const { dir, run } = await newService();
    mkdirSync(join(dir, "out"));
    expect((await run([...AD_HOURLY, "--start", "2026-10-18"], at("2026-10-26"))).code).toBe(0);
    const again = await run([...AD_HOURLY, "--summary", "json"], at("2026-10-27"));
    expect(again.code, again.stderr).toBe(0);
    expect(summaryOf(again.stderr)).toMatchObject({ from: "2026-10-26", to: "2026-10-26", days_written: 1 });
    const decision = stateOf(dir).autoLookback.decisions.at(-1);
    expect(decision.refetched).toEqual([]);
    expect(stateOf(dir).autoLookback.learnedHorizonDays).toBe(0);
  });

  it("a job whose last check found nothing fetches the new day while asking the totals; a day that moved is still fetched, after it", async () => {
    const { dir, run, restate, anHourOf } = await newService();
    mkdirSync(join(dir, "out"));
    expect((await run([...AD_HOURLY, "--start", "2026-10-18"], at("2026-10-26"))).code).toBe(0);
    expect((await run([...AD_HOURLY], at("2026-10-27"))).code).toBe(0);
    expect(stateOf(dir).autoLookback.decisions.at(-1)).toMatchObject({ mode: "checked", refetched: [] });
    await restate(anHourOf("2026-10-23"));
    const third = await run([...AD_HOURLY, "--summary", "json"], at("2026-10-28"));
    expect(third.code, third.stderr).toBe(0);
    expect(third.stderr).toMatch(/^adreport: 2026-10-23: spending .* -> /m);
    expect(summaryOf(third.stderr)).toMatchObject({ from: "2026-10-23", to: "2026-10-27", days_changed: 1 });
    const state = stateOf(dir);
    expect(state.lastDay).toBe("2026-10-27");
    expect(state.autoLookback.decisions.at(-1).refetched).toEqual([
      { day: "2026-10-23", why: expect.stringMatching(/^totals moved: /) },
    ]);
    expect(state.autoLookback.learnedHorizonDays).toBe(4);
    expect(state.days["2026-10-27"].checks).toMatchObject({ ad: expect.any(String), campaign: expect.any(String) });
    const plain = await run(
      ["report", "--dims", "ad,date", "--granularity", "hour", "--from", "2026-10-23", "--to", "2026-10-23", "-o", "-"],
      at("2026-10-28"),
    );
    expect(readFileSync(join(dir, "out", "2026-10-23.csv"), "utf8")).toBe(plain.stdout);
    // Nothing moved since: the next run checks and fetches the new day only.
    const fourth = await run([...AD_HOURLY, "--summary", "json"], at("2026-10-29"));
    expect(summaryOf(fourth.stderr)).toMatchObject({ from: "2026-10-28", to: "2026-10-28", days_written: 1 });
  });

  it("into a SQLite table: the moved day replaced, the table as a plain export of the same days", async () => {
    const { dir, run, restate, anHourOf } = await newService();
    const table = (file: string) => {
      const db = new Database(join(dir, file), { readonly: true });
      try {
        return db
          .prepare(
            'SELECT campaign_id, "date", views, spending, clicks, conversions FROM adreport_campaign_date ORDER BY 1, 2',
          )
          .raw()
          .all();
      } finally {
        db.close();
      }
    };
    // 2 rows a page: the days' totals by date cost fewer pages than the days themselves.
    const job = [
      "report",
      "--dims",
      "campaign,date",
      "-o",
      "sqlite:ads.db",
      "--incremental",
      "--lookback",
      "auto",
      "--page-size",
      "2",
    ];
    expect((await run([...job, "--start", "2026-10-20"], at("2026-10-26"))).code).toBe(0);
    expect((await run(job, at("2026-10-27"))).code).toBe(0);
    await restate(anHourOf("2026-10-22"));
    const third = await run([...job, "--summary", "json"], at("2026-10-28"));
    expect(third.code, third.stderr).toBe(0);
    expect(third.stderr).toMatch(/^adreport: 2026-10-22: spending .* -> /m);
    const decision = stateOf(dir).autoLookback.decisions.at(-1);
    expect(decision).toMatchObject({ mode: "checked", checked: { by: "date" } });
    expect(decision.refetched.map((r: { day: string }) => r.day)).toEqual(["2026-10-22"]);
    const plain = await run(
      ["report", "--dims", "campaign,date", "--from", "2026-10-20", "--to", "2026-10-27", "-o", "sqlite:plain.db"],
      at("2026-10-28"),
    );
    expect(plain.code, plain.stderr).toBe(0);
    expect(table("ads.db")).toEqual(table("plain.db"));
  });
  it("a job switched from --lookback 3d to auto and back, restated all along, ends with every day file as a fresh export", async () => {
    const { dir, service, run, restate, load, anHourOf } = await newService();
    mkdirSync(join(dir, "out"));
    const fixed = AD_HOURLY.map((word) => (word === "auto" ? "3d" : word));
    const steps: Array<[string[], string, () => Promise<void>]> = [
      [[...fixed, "--start", "2026-10-18"], "2026-10-24", async () => undefined],
      [AD_HOURLY, "2026-10-25", () => restate(anHourOf("2026-10-19"))],
      [AD_HOURLY, "2026-10-26", () => moveBetweenCampaigns(service, load, "2026-10-20")],
      [fixed, "2026-10-27", () => restate(anHourOf("2026-10-21"))],
      [fixed, "2026-10-28", () => restate(anHourOf("2026-10-26"))],
      [AD_HOURLY, "2026-10-29", () => restate(anHourOf("2026-10-22"))],
      [AD_HOURLY, "2026-10-30", () => moveBetweenCampaigns(service, load, "2026-10-23")],
    ];
    for (const [args, day, before] of steps) {
      await before();
      const result = await run(args, at(day));
      expect(result.code, `${day}: ${result.stderr}`).toBe(0);
    }
    mkdirSync(join(dir, "fresh"));
    const fresh = await run(
      [
        "report",
        "--dims",
        "ad,date",
        "--granularity",
        "hour",
        "--from",
        "2026-10-18",
        "--to",
        "2026-10-29",
        "-o",
        "fresh/{date}.csv",
      ],
      at("2026-10-30"),
    );
    expect(fresh.code, fresh.stderr).toBe(0);
    for (const name of readdirSync(join(dir, "fresh"))) {
      expect(readFileSync(join(dir, "out", name), "utf8"), name).toBe(readFileSync(join(dir, "fresh", name), "utf8"));
    }
  });
});
