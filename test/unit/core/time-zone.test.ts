/**
 * core/time-zone against Intl's own formatted dates (en-CA writes YYYY-MM-DD), for random instants in zones
 * with DST at 02:00, at midnight (America/Santiago, where some days start at 01:00), none, and south.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TimeZone } from "../../../src/core/time-zone";

const ZONES = ["Europe/Berlin", "America/Los_Angeles", "America/Santiago", "Australia/Sydney", "Asia/Tokyo", "UTC"];
const formats = new Map<string, Intl.DateTimeFormat>();
function localDate(sec: number, zone: string): string {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" });
    formats.set(zone, f);
  }
  return f.format(new Date(sec * 1000));
}
const dayOf = (text: string) => Date.parse(`${text}T00:00:00Z`) / 86_400_000;

const instant = fc.integer({ min: Date.UTC(1980, 0, 1) / 1000, max: Date.UTC(2037, 0, 1) / 1000 });
const zone = fc.constantFrom(...ZONES);

describe("TimeZone", () => {
  it("knows the local day of any instant, as Intl writes it", () => {
    fc.assert(
      fc.property(instant, zone, (sec, name) => {
        expect(TimeZone.open(name).localDay(sec)).toBe(dayOf(localDate(sec, name)));
      }),
    );
  });

  it("starts a local day at its first hour: inside the day, the hour before in the day before", () => {
    fc.assert(
      fc.property(instant, zone, (sec, name) => {
        const z = TimeZone.open(name);
        const start = z.dayStart(z.localDay(sec));
        expect(start).toBeLessThanOrEqual(sec);
        expect(start % 3600).toBe(0);
        expect(localDate(start, name)).toBe(localDate(sec, name));
        expect(dayOf(localDate(start - 3600, name))).toBe(z.localDay(sec) - 1);
      }),
    );
  });

  it("puts weeks on Mondays and months on the 1st, holding the instant", () => {
    fc.assert(
      fc.property(instant, zone, (sec, name) => {
        const z = TimeZone.open(name);
        const week = localDate(z.bucketStart("week", sec), name);
        expect(new Date(`${week}T00:00:00Z`).getUTCDay()).toBe(1);
        expect(dayOf(localDate(sec, name)) - dayOf(week)).toBeGreaterThanOrEqual(0);
        expect(dayOf(localDate(sec, name)) - dayOf(week)).toBeLessThan(7);
        expect(localDate(z.bucketStart("month", sec), name)).toBe(`${localDate(sec, name).slice(0, 7)}-01`);
        const month = z.bucketStart("month", sec);
        expect(z.bucketsBetween("month", month, z.bucketAfter("month", month, 13))).toBe(13);
      }),
    );
  });

  it("writes date-times with the offset, read back as the same instant", () => {
    fc.assert(
      fc.property(instant, zone, (sec, name) => {
        const hour = Math.floor(sec / 3600) * 3600;
        const text = TimeZone.open(name).dateTimeText(hour);
        expect(text).toMatch(/^\d{4}-\d\d-\d\dT\d\d:00:00[+-]\d\d:00$/);
        expect(Date.parse(text) / 1000).toBe(hour);
      }),
    );
  });

  it("has 23- and 25-hour days at DST changes, and a Santiago day that starts at 01:00", () => {
    const berlin = TimeZone.open("Europe/Berlin");
    const length = (z: TimeZone, date: string) => (z.dayStart(dayOf(date) + 1) - z.dayStart(dayOf(date))) / 3600;
    expect(length(berlin, "2026-03-29")).toBe(23);
    expect(length(berlin, "2026-10-25")).toBe(25);
    const santiago = TimeZone.open("America/Santiago");
    expect(santiago.dateTimeText(santiago.dayStart(dayOf("2026-09-06")))).toBe("2026-09-06T01:00:00-03:00");
  });

  it("finds offsets that are not whole hours, and refuses names it does not know", () => {
    const kolkata = TimeZone.open("Asia/Kolkata");
    expect(kolkata.name).toBe("Asia/Kolkata");
    expect(kolkata.wholeHourProblem(Date.UTC(2026, 0, 1) / 1000, Date.UTC(2026, 1, 1) / 1000)?.offset).toBe(19_800);
    const adelaide = TimeZone.open("Australia/Adelaide");
    expect(adelaide.wholeHourProblem(Date.UTC(2026, 0, 1) / 1000, Date.UTC(2026, 0, 2) / 1000)?.offset).toBe(37_800);
    expect(
      TimeZone.open("Europe/Berlin").wholeHourProblem(Date.UTC(2000, 0, 1) / 1000, Date.UTC(2037, 0, 1) / 1000),
    ).toBeUndefined();
    expect(TimeZone.open("etc/utc")).toBe(TimeZone.UTC);
    for (const bad of ["Mars/Base", "+01:00", "", "Europe/Berlin/x", "x".repeat(500)]) {
      expect(() => TimeZone.open(bad)).toThrow(/is not a time zone this system knows/);
    }
  });
});
