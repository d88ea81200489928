/** The range of an incremental run, from the job's last exported day, the lookback and the clock. */
import { describe, expect, it } from "vitest";
import { daysBetween, incrementalRange, parseLookback } from "../../../../src/engine/plan/incremental";
import { differences } from "../../../../src/state/day-record";

const now = new Date("2026-11-19T03:00:00Z");

describe("incrementalRange", () => {
  it("first run: --start to yesterday; later: the day after the last one, less the lookback", () => {
    const base = { now, lookbackDays: 3, granularity: "day" };
    expect(incrementalRange({ ...base, lastDay: undefined, start: "2026-11-01" })).toEqual({
      from: "2026-11-01",
      to: "2026-11-18",
    });
    expect(incrementalRange({ ...base, lastDay: "2026-11-17", start: undefined })).toEqual({
      from: "2026-11-15",
      to: "2026-11-18",
    });
    // A host down for a week catches up in one run.
    expect(incrementalRange({ ...base, lastDay: "2026-11-10", start: undefined })).toEqual({
      from: "2026-11-08",
      to: "2026-11-18",
    });
    // Never before --start.
    expect(incrementalRange({ ...base, lastDay: "2026-11-01", start: "2026-11-01" })).toEqual({
      from: "2026-11-01",
      to: "2026-11-18",
    });
  });

  it("nothing to do once yesterday is exported with lookback 0d; the first run needs --start", () => {
    const range = incrementalRange({
      now,
      lookbackDays: 0,
      granularity: "day",
      lastDay: "2026-11-18",
      start: undefined,
    });
    expect(range).toHaveProperty("nothing");
    expect(() =>
      incrementalRange({ now, lookbackDays: 3, granularity: "day", lastDay: undefined, start: undefined }),
    ).toThrow(/--start/);
  });

  it("weeks start on Monday and months on the 1st", () => {
    // 2026-11-15 is a Sunday: its ISO week starts on Monday 2026-11-09.
    const week = incrementalRange({
      now,
      lookbackDays: 3,
      granularity: "week",
      lastDay: "2026-11-17",
      start: undefined,
    });
    expect(week).toEqual({ from: "2026-11-09", to: "2026-11-18" });
    const month = incrementalRange({
      now,
      lookbackDays: 3,
      granularity: "month",
      lastDay: "2026-11-17",
      start: undefined,
    });
    expect(month).toEqual({ from: "2026-11-01", to: "2026-11-18" });
  });

  it("reads lookbacks and lists days", () => {
    expect(parseLookback("0d")).toBe(0);
    expect(parseLookback("7d")).toBe(7);
    for (const bad of ["3", "-1d", "1.5d", "3h", "", "367d"]) expect(() => parseLookback(bad)).toThrow(/--lookback/);
    expect(daysBetween("2026-02-27", "2026-03-01")).toEqual(["2026-02-27", "2026-02-28", "2026-03-01"]);
  });
});

describe("differences", () => {
  it("compares money in micros and shows it with grouping", () => {
    const before = { rows: 3, sums: { spending: 1_204_550_000, conversions: 81, views: 10 } };
    const after = { rows: 3, sums: { spending: 1_210_020_000, conversions: 84, views: 10 } };
    expect(differences(before, after)).toEqual(["spending 1,204.55 -> 1,210.02", "conversions 81 -> 84"]);
    expect(differences(before, before)).toEqual([]);
  });
});
