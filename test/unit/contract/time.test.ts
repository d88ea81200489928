import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseInstant } from "../../../src/contract/time";
import { civilFromDays, daysFromCivil, formatDate, formatDateTime } from "../../../src/core/calendar";

describe("parseInstant", () => {
  it.each([
    ["2026-11-01T00:00:00Z", "from", 1_793_491_200, 0],
    ["2026-11-01T09:00:00+09:00", "from", 1_793_491_200, 0],
    ["2026-11-01T09:00:00+0900", "from", 1_793_491_200, 0],
    ["2026-11-01T09:00:00+09", "from", 1_793_491_200, 0],
    ["2026-11-01T09:00:00 09:00", "from", 1_793_491_200, 0],
    ["2026-10-31T19:00:00-05:00", "from", 1_793_491_200, 0],
    ["2026-11-01t00:00:00z", "from", 1_793_491_200, 0],
    ["2026-11-01T00:00Z", "from", 1_793_491_200, 0],
    ["2026-11-01T00:00:00.250Z", "from", 1_793_491_200, 250_000_000],
    ["2026-11-01", "from", 1_793_491_200, 0],
    ["2026-11-01", "to", 1_793_491_200 + 86_399, 0],
    ["2024-02-29", "from", 1_709_164_800, 0],
  ] as const)("%s as %s", (text, role, sec, nano) => {
    expect(parseInstant(text, role)).toEqual({ sec, nano });
  });

  it.each([
    "2026-11-01T00:00:00",
    "2026-11-1",
    "2026-13-01",
    "2025-02-29",
    "2026-11-31",
    "2026-11-01T24:00:00Z",
    "2026-11-01T23:60:00Z",
    "2026-11-01T23:59:60Z",
    "2026-11-01T00:00:00+24:00",
    "2026-11-01T00:00:00.Z",
    "2026-11-01T00:00:00.1234567890Z",
    "1761955200",
    "",
    "today",
  ])("refuses %j", (text) => {
    expect(parseInstant(text, "from")).toBeUndefined();
  });
});

describe("civil dates", () => {
  it("round-trips every day between year 1 and 9999", () => {
    fc.assert(
      fc.property(fc.integer({ min: daysFromCivil(1, 1, 1), max: daysFromCivil(9999, 12, 31) }), (days) => {
        const { year, month, day } = civilFromDays(days);
        expect(daysFromCivil(year, month, day)).toBe(days);
      }),
    );
  });

  it("agrees with Date for the epoch era", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800 }), (sec) => {
        expect(formatDateTime(sec)).toBe(`${new Date(sec * 1000).toISOString().slice(0, 19)}Z`);
        expect(formatDate(sec)).toBe(new Date(sec * 1000).toISOString().slice(0, 10));
      }),
    );
  });
});
