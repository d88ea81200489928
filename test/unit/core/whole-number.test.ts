/**
 * The one whole-number reader, and the words of each place that reads one through it: an option, a
 * setting, an id and the N of `-Nd` keep their own messages.
 */
import { InvalidArgumentError } from "@commander-js/extra-typings";
import { describe, expect, it } from "vitest";
import { integerOption } from "../../../src/commands/shared/parse";
import { checkSetting } from "../../../src/config/settings";
import { readWholeNumber } from "../../../src/core/whole-number";
import { planRequest } from "../../../src/engine/plan/request";
import { resolveWhen } from "../../../src/engine/plan/when";

describe("readWholeNumber", () => {
  it.each([
    ["0", 0],
    ["007", 7],
    ["65535", 65_535],
  ])("reads %s as %d", (text, value) => {
    expect(readWholeNumber(text)).toBe(value);
  });

  it.each(["", " 1", "1 ", "-1", "+1", "1.0", "1e3", "0x10", "1_000", "１"])("refuses %j", (text) => {
    expect(readWholeNumber(text)).toBeUndefined();
  });
});

describe("its callers keep their own words", () => {
  it("an integer option: white space around is fine; a sign, a fraction or out of range is refused alike", () => {
    const port = integerOption(0, 65_535);
    expect(port(" 8080 ")).toBe(8080);
    for (const text of ["-1", "-0", "1.5", "65536", "x", ""]) {
      expect(() => port(text)).toThrow(new InvalidArgumentError("expected a whole number from 0 to 65535."));
    }
  });

  it("a setting: from text or from a number in the file", () => {
    expect(checkSetting("retries", " 3 ")).toEqual({ ok: true, value: 3 });
    expect(checkSetting("retries", 3)).toEqual({ ok: true, value: 3 });
    for (const value of ["-1", "1.5", 1.5, "11", true]) {
      expect(checkSetting("retries", value)).toEqual({ ok: false, message: "expected a whole number from 0 to 10" });
    }
  });

  it("an id of --campaign and --ad", () => {
    const now = new Date("2026-11-23T00:00:00Z");
    const flags = { from: "-7d", to: "yesterday", split: true };
    expect(planRequest({ ...flags, campaign: " 12 " }, now, 100).request.campaignId).toBe(12);
    for (const text of ["0", "-3", "1.5", "x"]) {
      expect(() => planRequest({ ...flags, ad: text }, now, 100)).toThrow(
        `--ad: ${JSON.stringify(text)} is not a positive integer id`,
      );
    }
  });

  it("the N of -Nd", () => {
    const now = new Date("2026-11-23T00:00:00Z");
    expect(resolveWhen("-007d", now, "--from")).toBe("2026-11-16");
    for (const text of ["-d", "-+7d", "-7.0d", "- 7d"])
      expect(() => resolveWhen(text, now, "--from")).toThrow(/is not one of/);
  });
});
