/** The one duration grammar: every spelling settings and `serve --faults delay` accept, in either bare unit. */
import { describe, expect, it } from "vitest";
import { checkSetting } from "../../../src/config/settings";
import { formatDuration, formatInterval, formatWait, parseDuration } from "../../../src/core/duration";
import { parseFaults } from "../../../src/server";

describe("parseDuration", () => {
  it.each([
    ["30", 30],
    ["30s", 30],
    ["1.5m", 90],
    ["500ms", 0.5],
    ["1h", 3600],
    [" 2m ", 120],
    ["0", 0],
  ])("reads %j as %d s when a bare number is seconds", (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds);
  });

  it("reads a bare number in the unit the caller names", () => {
    expect(parseDuration("50", "ms")).toBe(0.05);
    expect(parseDuration("2s", "ms")).toBe(2);
  });

  it.each(["", "s", "-1s", "1.s", ".5s", "1d", "1 s", "1e3", "ten"])("refuses %j", (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});

describe("its callers", () => {
  it("settings: positive durations within each setting's bound", () => {
    expect(checkSetting("timeout", "500ms")).toEqual({ ok: true, value: 0.5 });
    expect(checkSetting("timeout", 30)).toEqual({ ok: true, value: 30 });
    expect(checkSetting("timeout", "0s").ok).toBe(false);
    expect(checkSetting("timeout", "2h").ok).toBe(false);
    expect(checkSetting("max-time", "1.5m")).toEqual({ ok: true, value: 90 });
  });

  it("--faults delay: whole milliseconds, a bare number being milliseconds", () => {
    const delays = parseFaults("delay:50,delay:50ms,delay:2s,delay:0,delay:1.5s:0.5").map((rule) =>
      rule.kind === "delay" ? rule.ms : undefined,
    );
    expect(delays).toEqual([50, 50, 2000, 0, 1500]);
    expect(() => parseFaults("delay:soon")).toThrow(/duration such as 50ms/);
  });
});

describe("durations said in words", () => {
  it.each([
    [600, "10m"],
    [90, "90s"],
    [0.5, "500ms"],
    [3600, "1h"],
    [5400, "90m"],
  ])(
    "formatDuration writes %d s back in the grammar as %j, the way a limit was most likely written",
    (seconds, text) => {
      expect(formatDuration(seconds)).toBe(text);
      expect(parseDuration(text)).toBe(seconds);
    },
  );

  it.each([
    [400, "1 s"],
    [45_000, "45 s"],
    [120_000, "120 s"],
    [120_001, "3 min"],
    [720_000, "12 min"],
    [7_200_000, "2 h"],
    [9_000_000, "2.5 h"],
    [172_800_000, "2 days"],
    [Number.POSITIVE_INFINITY, "for ever"],
  ])("formatWait says a wait of %d ms as %j, rounded up", (ms, text) => {
    expect(formatWait(ms)).toBe(text);
  });

  it.each([
    [1_500, "1.5 s"],
    [9_999, "10 s"],
    [25_400, "25 s"],
    [119_400, "119 s"],
    [720_000, "12 min"],
  ])("formatInterval says an interval of %d ms as %j, to the nearest", (ms, text) => {
    expect(formatInterval(ms)).toBe(text);
  });
});
