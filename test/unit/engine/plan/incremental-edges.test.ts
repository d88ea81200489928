/** The incremental range at the edges a cron job meets: UTC midnight, a lookback longer than the history, a future --start. */
import { describe, expect, it } from "vitest";
import { incrementalRange } from "../../../../src/engine/plan/incremental";

const base = { lookbackDays: 3, granularity: "day", start: "2026-11-01" };

describe("incrementalRange at the edges", () => {
  it("ends on the last complete UTC day, to the millisecond", () => {
    expect(incrementalRange({ ...base, now: new Date("2026-11-20T00:00:00.000Z"), lastDay: undefined })).toEqual({
      from: "2026-11-01",
      to: "2026-11-19",
    });
    expect(incrementalRange({ ...base, now: new Date("2026-11-19T23:59:59.999Z"), lastDay: undefined })).toEqual({
      from: "2026-11-01",
      to: "2026-11-18",
    });
    // 2026-03-29 is a DST change in Europe: nothing changes in UTC.
    expect(
      incrementalRange({ ...base, start: undefined, now: new Date("2026-03-30T00:30:00Z"), lastDay: "2026-03-28" }),
    ).toEqual({
      from: "2026-03-26",
      to: "2026-03-29",
    });
  });

  it("a lookback longer than the history starts at --start; a --start after yesterday has nothing to do", () => {
    const now = new Date("2026-11-20T06:00:00Z");
    expect(incrementalRange({ ...base, now, lookbackDays: 366, lastDay: "2026-11-10" })).toEqual({
      from: "2026-11-01",
      to: "2026-11-19",
    });
    expect(incrementalRange({ ...base, now, start: "2027-01-01", lastDay: undefined })).toEqual({
      nothing: "nothing to do: --start 2027-01-01 is after yesterday (2026-11-19)",
    });
  });
});
