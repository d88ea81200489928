import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  bucketDateText,
  bucketFirstDay,
  bucketUnitOf,
  civilFromDays,
  dayAYearBefore,
  dayOfInstant,
  dayOfText,
  daysFromCivil,
  dayText,
  formatDate,
  formatDateTime,
  isCivilDate,
  monthStart,
  monthsBetween,
  weekStart,
} from "../../../src/core/calendar";

const DAY_MS = 86_400_000;
/** Day numbers from year 1 to 9999, where Date and ISO text agree with the proleptic calendar. */
const anyDay = fc.integer({ min: -719_162, max: 2_932_896 });

describe("calendar", () => {
  it("agrees with Date on every day from year 1 to 9999", () => {
    fc.assert(
      fc.property(anyDay, (day) => {
        const date = new Date(day * DAY_MS);
        expect(civilFromDays(day)).toEqual({
          year: date.getUTCFullYear(),
          month: date.getUTCMonth() + 1,
          day: date.getUTCDate(),
        });
        expect(daysFromCivil(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate())).toBe(day);
        expect(dayText(day)).toBe(date.toISOString().slice(0, 10));
        expect(dayOfText(dayText(day))).toBe(day);
        expect(dayOfInstant(new Date(day * DAY_MS + 86_399_999))).toBe(day);
      }),
    );
  });

  it("runs months past 12 or before 1 into the next or previous years, as Date.UTC does (from year 100, where it reads years as they are)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 9000 }), fc.integer({ min: -40, max: 40 }), (year, month) => {
        expect(daysFromCivil(year, month, 1)).toBe(Date.UTC(year, month - 1, 1) / DAY_MS);
      }),
    );
  });

  it("starts weeks on Monday and months on the 1st", () => {
    fc.assert(
      fc.property(anyDay, (day) => {
        const monday = weekStart(day);
        expect(new Date(monday * DAY_MS).getUTCDay()).toBe(1);
        expect(day - monday).toBeGreaterThanOrEqual(0);
        expect(day - monday).toBeLessThan(7);
        expect(dayText(monthStart(day))).toBe(`${dayText(day).slice(0, 8)}01`);
        expect(bucketFirstDay("day", day)).toBe(day);
        expect(bucketFirstDay("week", day)).toBe(monday);
        expect(bucketFirstDay("month", day)).toBe(monthStart(day));
      }),
    );
    expect(dayText(monthStart(dayOfText("2026-12-15") as number, 1))).toBe("2027-01-01");
    expect(dayText(monthStart(dayOfText("2026-01-15") as number, -1))).toBe("2025-12-01");
    expect(monthsBetween(dayOfText("2025-11-30") as number, dayOfText("2026-02-01") as number)).toBe(3);
  });

  it("refuses texts that name no day", () => {
    for (const text of ["2026-02-29", "2026-13-01", "2026-00-10", "2026-04-31", "2026-1-01", " 2026-01-01", "x"]) {
      expect(dayOfText(text)).toBeUndefined();
    }
    expect(dayOfText("2024-02-29")).toBe(daysFromCivil(2024, 2, 29));
    expect(isCivilDate(2100, 2, 29)).toBe(false);
    expect(isCivilDate(2000, 2, 29)).toBe(true);
  });

  it("takes a year off, 29 February becoming 28 February", () => {
    expect(dayText(dayAYearBefore(dayOfText("2028-02-29") as number))).toBe("2027-02-28");
    expect(dayText(dayAYearBefore(dayOfText("2026-11-25") as number))).toBe("2025-11-25");
  });

  it("writes seconds as ISO 8601 UTC, as Date does", () => {
    fc.assert(
      fc.property(fc.integer({ min: -62_135_596_800, max: 253_402_300_799 }), (sec) => {
        expect(formatDateTime(sec)).toBe(`${new Date(sec * 1000).toISOString().slice(0, 19)}Z`);
        expect(formatDate(sec)).toBe(new Date(sec * 1000).toISOString().slice(0, 10));
      }),
    );
    expect(bucketDateText(1_793_491_200, false)).toBe("2026-11-01");
    expect(bucketDateText(1_793_491_200, true)).toBe("2026-11-01T00:00:00Z");
    expect(bucketDateText(1_793_494_800, false)).toBe("2026-11-01T01:00:00Z");
  });

  it("reads every granularity word in any case, and nothing else", () => {
    expect(["hour", "HOURLY", "day", "Daily", "week", "weekly", "month", "MONTHLY"].map(bucketUnitOf)).toEqual([
      "hour",
      "hour",
      "day",
      "day",
      "week",
      "week",
      "month",
      "month",
    ]);
    for (const word of ["total", "", "__proto__", "constructor", "hours", undefined]) {
      expect(bucketUnitOf(word)).toBeUndefined();
    }
  });
});
