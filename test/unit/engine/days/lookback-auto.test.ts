/**
 * --lookback auto's pure parts: the comparison of the service's totals with the ledger (sums, and the
 * digest of their spread over entities), the spans fetched, the horizon learned from restatements, the
 * plan (check or fetch whole), and `settledThrough`.
 */
import { describe, expect, it } from "vitest";
import { movedDays, spansToFetch, whyMoved } from "../../../../src/engine/days/auto-compare";
import {
  DEEP_DAYS,
  fallbackLookback,
  horizonOf,
  keepRestated,
  learnHorizon,
  normalHorizon,
} from "../../../../src/engine/days/auto-horizon";
import { planAuto } from "../../../../src/engine/days/auto-plan";
import { nextAutoState } from "../../../../src/engine/days/auto-run";
import { CheckTally, NO_ROWS_DIGEST, namedAt } from "../../../../src/engine/days/check-digest";
import { emptyAutoLookback, settledThrough } from "../../../../src/state/auto-lookback";
import type { DayRecord } from "../../../../src/state/day-record";
import type { JobState } from "../../../../src/state/store";

const DAY = 86_400;
const sec = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;
const row = (day: string, hour: number, ids: { ad: number; campaign: number }, views: number, spending: number) => ({
  dimensions: { ad_id: ids.ad, campaign_id: ids.campaign, date: sec(day) + hour * 3600 },
  metrics: { views, spending },
});

describe("CheckTally: the same digest from a job's hours and from the service's totals by day", () => {
  it("hours of ads summed by campaign give the digest of the campaign totals; a move between campaigns changes it", () => {
    const hours = new CheckTally("campaign", ["views", "spending"]);
    hours.add(row("2026-10-20", 1, { ad: 10, campaign: 1 }, 5, 0.1));
    hours.add(row("2026-10-20", 7, { ad: 11, campaign: 1 }, 7, 0.2));
    hours.add(row("2026-10-20", 9, { ad: 20, campaign: 2 }, 3, 0.3));
    const totals = new CheckTally("campaign", ["views", "spending"]);
    totals.add({ dimensions: { campaign_id: 2, date: sec("2026-10-20") }, metrics: { views: 3, spending: 0.3 } });
    totals.add({ dimensions: { campaign_id: 1, date: sec("2026-10-20") }, metrics: { views: 12, spending: 0.3 } });
    expect(totals.digests().get("2026-10-20")).toBe(hours.digests().get("2026-10-20"));
    expect(totals.sums().get("2026-10-20")).toEqual({ views: 15, spending: 600_000 });
    const moved = new CheckTally("campaign", ["views", "spending"]);
    moved.add({ dimensions: { campaign_id: 2, date: sec("2026-10-20") }, metrics: { views: 4, spending: 0.3 } });
    moved.add({ dimensions: { campaign_id: 1, date: sec("2026-10-20") }, metrics: { views: 11, spending: 0.3 } });
    expect(moved.sums().get("2026-10-20")).toEqual({ views: 15, spending: 600_000 });
    expect(moved.digests().get("2026-10-20")).not.toBe(hours.digests().get("2026-10-20"));
  });

  it("at the job's own entity the name counts: an entity renamed, its sums kept, is a day that moved", () => {
    const named = (name: string) => {
      const tally = new CheckTally("ad", ["views"], namedAt("ad", ["ad", "date"]));
      tally.add({ dimensions: { ad_id: 1, name, date: sec("2026-10-20") }, metrics: { views: 2 } });
      return tally.digests().get("2026-10-20");
    };
    expect(named("Banner")).toBe(named("Banner"));
    expect(named("Banner, wide")).not.toBe(named("Banner"));
    // An ad's rows carry the ad's name, not its campaign's: a tally by campaign leaves names out.
    expect(namedAt("campaign", ["ad", "date"])).toBe(false);
    expect(namedAt("campaign", ["campaign", "date"])).toBe(true);
    expect(namedAt("date", ["date"])).toBe(false);
  });

  it("an entity of zeros is left out (a service may send it or not); a row without its id breaks its day only", () => {
    const a = new CheckTally("ad", ["views"]);
    a.add({ dimensions: { ad_id: 1, date: sec("2026-10-20") }, metrics: { views: 2 } });
    const b = new CheckTally("ad", ["views"]);
    b.add({ dimensions: { ad_id: 1, date: sec("2026-10-20") }, metrics: { views: 2 } });
    b.add({ dimensions: { ad_id: 2, date: sec("2026-10-20") }, metrics: { views: 0 } });
    expect(a.digests().get("2026-10-20")).toBe(b.digests().get("2026-10-20"));
    expect(b.add({ dimensions: { date: sec("2026-10-21") }, metrics: { views: 1 } })).toBe(false);
    expect(b.digests().has("2026-10-21")).toBe(false);
    expect(b.add({ dimensions: { ad_id: 1 }, metrics: { views: 1 } })).toBe(false);
    expect(new CheckTally("ad", ["views"]).digests().size).toBe(0);
    expect(NO_ROWS_DIGEST).toMatch(/^[0-9a-f]{16}$/);
    expect(DAY).toBe(86_400);
  });
});

describe("whyMoved and movedDays: the service's totals against the ledger", () => {
  const record = (views: number, checks?: Record<string, string>): DayRecord => ({
    rows: 24,
    sums: { views, spending: 1_000_000 },
    ...(checks ? { checks } : {}),
  });
  it("totals moved, rows moved between entities, a first digest taken on its totals, a day the ledger lacks", () => {
    const now = { sums: { views: 10, spending: 1_000_000 }, digest: "aaaa" };
    expect(whyMoved(record(10, { campaign: "aaaa" }), now, "campaign")).toBeUndefined();
    expect(whyMoved(record(9, { campaign: "cccc" }), now, "campaign")).toBe("totals moved: views 9 -> 10");
    // The same totals as the last check, whatever the rows summed to (a service that rounds its totals).
    expect(whyMoved(record(9, { campaign: "aaaa" }), now, "campaign")).toBeUndefined();
    expect(whyMoved(record(9), now, "campaign")).toBe("totals moved: views 9 -> 10");
    expect(whyMoved(record(10, { campaign: "bbbb" }), now, "campaign")).toBe(
      "rows moved between campaigns, totals the same",
    );
    expect(whyMoved(record(10, { ad: "bbbb" }), now, "campaign")).toBeUndefined();
    expect(whyMoved(record(10), now, "campaign")).toBeUndefined();
    expect(whyMoved(undefined, now, "campaign")).toBe("not in the ledger");
    expect(whyMoved(record(10, { date: "bbbb" }), now, "date")).toBe("totals moved since the last check");
  });

  it("a day the service no longer has rows for (an ad deleted) moved to zero", () => {
    const ledger = (day: string) => (day === "2026-10-20" ? record(10) : undefined);
    expect(movedDays(["2026-10-20"], ledger, new Map(), "ad")).toEqual([
      { day: "2026-10-20", why: "totals moved: views 10 -> 0, spending 1.00 -> 0.00" },
    ]);
  });
});

describe("spansToFetch: consecutive days in one request, neighbours joined when no dearer", () => {
  it("joins across a gap while the pages do not grow, and not across one that costs a page", () => {
    const days = ["2026-10-01", "2026-10-02", "2026-10-05", "2026-10-20"];
    expect(spansToFetch(days, () => 10, 1000)).toEqual([{ from: "2026-10-01", to: "2026-10-20" }]);
    // 2 pages and 1 page apart, 3 pages together (the 2 days between ride along); the 20th would add 12.
    expect(spansToFetch(days, () => 600, 1000)).toEqual([
      { from: "2026-10-01", to: "2026-10-05" },
      { from: "2026-10-20", to: "2026-10-20" },
    ]);
    expect(spansToFetch(days, () => 1000, 1000)).toEqual([
      { from: "2026-10-01", to: "2026-10-02" },
      { from: "2026-10-05", to: "2026-10-05" },
      { from: "2026-10-20", to: "2026-10-20" },
    ]);
    expect(spansToFetch([], () => 1, 1000)).toEqual([]);
  });
});

describe("the horizon: learned from the restatements of the last 90 days, a margin, a deeper check every 7th run", () => {
  it("learns the oldest age seen, forgets ages seen over 90 days ago, and sizes the checked horizon from it", () => {
    expect(learnHorizon([], "2026-10-31")).toBe(0);
    const seen = [
      { end: "2026-07-01", oldest: 40 },
      { end: "2026-10-01", oldest: 12 },
      { end: "2026-10-30", oldest: 4 },
    ];
    expect(learnHorizon(seen, "2026-10-31")).toBe(12);
    expect(keepRestated(seen, "2026-10-31", 20).map((r) => r.end)).toEqual(["2026-10-01", "2026-10-30", "2026-10-31"]);
    expect(normalHorizon(0)).toBe(7);
    expect(normalHorizon(12)).toBe(19);
    expect(normalHorizon(30)).toBe(45);
    expect(normalHorizon(400)).toBe(366);
  });

  it("nothing learned: the deep check; every 7th run deep; else the learned horizon and its margin", () => {
    expect(horizonOf({ learnedHorizonDays: null, runs: 0 })).toMatchObject({ days: DEEP_DAYS, deep: true });
    expect(horizonOf({ learnedHorizonDays: 5, runs: 3 })).toMatchObject({ days: 12, deep: false });
    expect(horizonOf({ learnedHorizonDays: 5, runs: 6 })).toMatchObject({ days: 90, deep: true });
    expect(horizonOf({ learnedHorizonDays: 100, runs: 13 })).toMatchObject({ days: 150, deep: true });
    expect(fallbackLookback({ learnedHorizonDays: null })).toBe(3);
    expect(fallbackLookback({ learnedHorizonDays: 10 })).toBe(17);
  });

  it("a run that saw a day restated 20 days back grows the horizon to it; one that checked and saw none keeps it", () => {
    const state = { ...emptyAutoLookback(), learnedHorizonDays: 3, runs: 4 };
    const plan = { auto: state, end: "2026-10-31" } as Parameters<typeof nextAutoState>[0];
    const outcome = (oldest: number | undefined) =>
      ({
        spans: [],
        checks: new Map(),
        oldest,
        checkRows: { grain: "ad", rows: 40 },
        warning: undefined,
        decision: { run: "r", at: "t", end: "2026-10-31", mode: "checked", checked: {}, refetched: [], newDays: 1 },
      }) as unknown as Parameters<typeof nextAutoState>[1];
    const grown = nextAutoState(plan, outcome(20), []);
    expect(grown).toMatchObject({ learnedHorizonDays: 20, runs: 5, checkRowsPerDay: { ad: 40 } });
    expect(nextAutoState(plan, outcome(undefined), ["2026-10-25"]).learnedHorizonDays).toBe(6);
    expect(nextAutoState(plan, outcome(undefined), []).learnedHorizonDays).toBe(0);
    expect(grown.decisions).toHaveLength(1);
    // A fallback's own fetches teach nothing: against a service that never answers, it stays the default.
    const fresh = { ...plan, auto: emptyAutoLookback() };
    const fallback = outcome(undefined);
    fallback.decision = { ...fallback.decision, mode: "fallback", checked: null };
    expect(nextAutoState(fresh, fallback, ["2026-10-20"]).learnedHorizonDays).toBeNull();
    expect(nextAutoState(plan, fallback, ["2026-10-20"]).learnedHorizonDays).toBe(0);
  });
});

describe("planAuto: which days are checked, by what, and whether fetching them whole is no dearer", () => {
  const ledger = (days: string[], rows: number): JobState =>
    ({
      lastDay: days.at(-1),
      days: Object.fromEntries(days.map((d) => [d, { rows, sums: { views: 1 } }])),
      autoLookback: { ...emptyAutoLookback(), learnedHorizonDays: 2, runs: 1, checkRowsPerDay: { ad: 40 } },
    }) as unknown as JobState;
  const days = Array.from({ length: 30 }, (_, i) => `2026-10-${String(i + 1).padStart(2, "0")}`);
  it("a large hourly job: its totals by ad over the learned horizon and margin, one request", () => {
    const plan = planAuto({
      state: ledger(days, 960),
      newFrom: "2026-10-31",
      end: "2026-10-31",
      dimensions: ["ad", "date"],
      pageSize: 1000,
    });
    expect(plan).toMatchObject({ mode: "check", grain: "ad", pages: { check: 1 } });
    // Learned 2 days, a margin of 7: the last 9 days, the new one included.
    expect(plan.checked).toEqual(days.slice(-8));
  });
  it("a job of a few rows a day: fetching the checked days whole is no dearer than their totals and the new day", () => {
    const plan = planAuto({
      state: ledger(days, 4),
      newFrom: "2026-10-31",
      end: "2026-10-31",
      dimensions: ["campaign", "date"],
      pageSize: 1000,
    });
    expect(plan).toMatchObject({ mode: "fetched in full", pages: { full: 1 } });
  });
  it("totals by ad that would not fit one page fall back to the campaign on an ordinary run", () => {
    const state = ledger(days, 960);
    (state.autoLookback as { checkRowsPerDay: Record<string, number> }).checkRowsPerDay = { ad: 400 };
    const plan = planAuto({
      state,
      newFrom: "2026-10-31",
      end: "2026-10-31",
      dimensions: ["ad", "date"],
      pageSize: 1000,
    });
    expect(plan.grain).toBe("campaign");
  });
  it("before any check by ad, its ledger's rows a day stand for the ads: a big hourly job is checked by campaign", () => {
    const state = ledger(days, 960);
    (state.autoLookback as { checkRowsPerDay: Record<string, number> }).checkRowsPerDay = {};
    const plan = planAuto({
      state,
      newFrom: "2026-10-31",
      end: "2026-10-31",
      dimensions: ["ad", "date"],
      pageSize: 1000,
    });
    expect(plan).toMatchObject({ grain: "campaign", mode: "check" });
  });
  it("a first run checks nothing", () => {
    const plan = planAuto({
      state: undefined,
      newFrom: "2026-10-01",
      end: "2026-10-31",
      dimensions: ["ad", "date"],
      pageSize: 1000,
    });
    expect(plan.checked).toEqual([]);
  });
});

describe("settledThrough: the newest day older than the learned horizon", () => {
  it("is the last day minus the horizon minus one; undefined until something is learned", () => {
    const auto = { ...emptyAutoLookback(), learnedHorizonDays: 6 };
    expect(settledThrough({ lastDay: "2026-10-31", autoLookback: auto })).toBe("2026-10-24");
    expect(settledThrough({ lastDay: "2026-10-31", autoLookback: emptyAutoLookback() })).toBeUndefined();
    expect(settledThrough({ lastDay: "2026-10-31" })).toBeUndefined();
  });
});
