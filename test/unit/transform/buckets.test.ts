import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { utcBuckets } from "../../../src/transform/buckets";

/** Bucket starts by Date arithmetic, independently of the code under test. */
function naiveFloor(sec: number, granularity: "hour" | "day" | "week" | "month"): number {
  const d = new Date(sec * 1000);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  const day = d.getUTCDate();
  switch (granularity) {
    case "hour":
      return Date.UTC(y, m, day, d.getUTCHours()) / 1000;
    case "day":
      return Date.UTC(y, m, day) / 1000;
    case "week":
      return Date.UTC(y, m, day - ((d.getUTCDay() + 6) % 7)) / 1000;
    case "month":
      return Date.UTC(y, m, 1) / 1000;
  }
}

function naiveNext(start: number, granularity: "hour" | "day" | "week" | "month"): number {
  const d = new Date(start * 1000);
  if (granularity === "month") return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 1000;
  return start + { hour: 3600, day: 86_400, week: 604_800 }[granularity];
}

describe("utcBuckets", () => {
  for (const granularity of ["hour", "day", "week", "month"] as const) {
    it(`${granularity}: floor and next agree with Date arithmetic`, () => {
      const clock = utcBuckets(granularity);
      fc.assert(
        fc.property(fc.integer({ min: -2_000_000_000, max: 4_000_000_000 }), (sec) => {
          const start = clock.floor(sec);
          expect(start).toBe(naiveFloor(sec, granularity));
          expect(clock.next(start)).toBe(naiveNext(start, granularity));
        }),
      );
    });
  }

  it("weeks start on Monday, months cross the year", () => {
    expect(utcBuckets("week").floor(Date.UTC(2026, 10, 1) / 1000)).toBe(Date.UTC(2026, 9, 26) / 1000);
    expect(utcBuckets("month").next(Date.UTC(2026, 11, 1) / 1000)).toBe(Date.UTC(2027, 0, 1) / 1000);
  });
});
