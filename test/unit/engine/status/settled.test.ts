import { describe, expect, it } from "vitest";
import { dayOfText } from "../../../../src/core/calendar";
import { settledThrough } from "../../../../src/engine/status/settled";
import { settledThrough as autoSettled } from "../../../../src/state/auto-lookback";

const day = (text: string) => dayOfText(text) as number;

describe("settled through", () => {
  it("a horizon --lookback auto learned decides it, as the auto ledger says it", () => {
    const settled = settledThrough(day("2026-11-28"), day("2026-01-01"), {
      restatedLagDays: 2,
      lookbackDays: 0,
      learnedHorizonDays: 12,
    });
    expect(settled).toEqual({ day: "2026-11-15", horizonDays: 13, basis: "learned" });
    const auto = autoSettled({
      lastDay: "2026-11-28",
      autoLookback: {
        learnedHorizonDays: 12,
        runs: 1,
        checkRowsPerDay: {},
        restated: [],
        decisions: [],
      },
    });
    expect(auto).toBe(settled.day);
  });

  it("before anything is learned: the restatements the runs saw, else the lookback", () => {
    const newest = day("2026-11-28");
    const first = day("2026-01-01");
    expect(settledThrough(newest, first, { restatedLagDays: 4, lookbackDays: 3, learnedHorizonDays: null })).toEqual({
      day: "2026-11-23",
      horizonDays: 5,
      basis: "restatements",
    });
    expect(settledThrough(newest, first, { restatedLagDays: undefined, lookbackDays: 3 })).toEqual({
      day: "2026-11-25",
      horizonDays: 3,
      basis: "lookback",
    });
  });

  it("no day is settled while the horizon reaches past the first day", () => {
    expect(
      settledThrough(day("2026-11-28"), day("2026-11-20"), {
        restatedLagDays: undefined,
        lookbackDays: 0,
        learnedHorizonDays: 30,
      }).day,
    ).toBeNull();
  });
});
