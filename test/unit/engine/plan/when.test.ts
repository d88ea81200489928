/** --from and --to: the cron words, their range, and an error that lists every accepted form. */
import { describe, expect, it } from "vitest";
import { UsageError } from "../../../../src/core/errors";
import { resolveWhen, WHEN_FORMS } from "../../../../src/engine/plan/when";

const NOW = new Date("2026-11-23T09:30:00Z");

function refusal(text: string, flag: "--from" | "--to" = "--from"): UsageError {
  try {
    resolveWhen(text, NOW, flag);
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error(`${text} was accepted`);
}

describe("resolveWhen", () => {
  it.each([
    ["today", "2026-11-23"],
    ["Yesterday", "2026-11-22"],
    ["-7d", "2026-11-16"],
    ["-0d", "2026-11-23"],
    ["-365d", "2025-11-23"],
    [` -${20_780}d `, "1970-01-01"],
    ["2026-11-01", "2026-11-01"],
    ["2026-11-01T13:00:00+02:00", "2026-11-01T13:00:00+02:00"],
  ])("%s is %s", (text, expected) => {
    expect(resolveWhen(text, NOW, "--from")).toBe(expected);
  });

  it.each(["-20781d", "-100000d", "-99999999999999999999d"])("%s is out of range, not a malformed date", (text) => {
    const error = refusal(text);
    expect(error.message).toBe(
      `--from: ${text} is out of range: the earliest day is 1970-01-01, which is -20780d today`,
    );
  });

  it.each(["last week", "7d", "-7 days", "2026-13-01", "2026-11-01T10:00:00", "2026/11/01", ""])(
    "%j is refused with every accepted form",
    (text) => {
      const error = refusal(text, "--to");
      expect(error.message).toBe(`--to: ${JSON.stringify(text)} is not one of: ${WHEN_FORMS}`);
      for (const form of ["today", "yesterday", "-Nd", "2026-11-01", "2026-11-01T13:00:00Z"]) {
        expect(error.message).toContain(form);
      }
    },
  );
});
