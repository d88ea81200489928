/**
 * `serve demo`'s range: by default the data ends with yesterday (UTC) of the injected clock, so the
 * default report range (the last 7 days) has rows; `--end` pins it, and the same end gives the same bytes.
 */
import { describe, expect, it } from "vitest";
import { runInProcess } from "../../helpers/run-cli-in-process";

const SMALL = ["--days", "2", "--advertisers", "1", "--campaigns", "1", "--ads", "1", "--keywords", "0"];
const hours = (ndjson: string) =>
  ndjson
    .trim()
    .split("\n")
    .map((line) => (JSON.parse(line) as { hour: string }).hour);

describe("serve demo's range", () => {
  it("ends with yesterday (UTC) of the clock by default", async () => {
    const now = new Date("2026-11-24T10:15:00Z");
    const result = await runInProcess(["serve", "demo", "--ndjson", "-", ...SMALL, "--activity", "1"], { now });
    expect(result.code, result.stderr).toBe(0);
    const seen = hours(result.stdout);
    expect(seen[0]).toBe("2026-11-22T00:00:00Z");
    expect(seen.at(-1)).toBe("2026-11-23T23:00:00Z");
    expect(seen).toHaveLength(48);
  });

  it("is the same, byte for byte, for the same --end whatever the clock says", async () => {
    const args = ["serve", "demo", "--ndjson", "-", ...SMALL, "--end", "2026-11-01"];
    const first = await runInProcess(args, { now: new Date("2026-11-24T10:15:00Z") });
    const second = await runInProcess(args, { now: new Date("2031-01-01T00:00:00Z") });
    expect(first.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(hours(first.stdout).at(-1)?.startsWith("2026-10-31T")).toBe(true);
    // The clock's own day gives the same data as --end naming it.
    const byClock = await runInProcess(["serve", "demo", "--ndjson", "-", ...SMALL], {
      now: new Date("2026-11-01T23:59:59Z"),
    });
    expect(byClock.stdout).toBe(first.stdout);
  });

  it("refuses an --end that is not a date (exit 2)", async () => {
    const result = await runInProcess(["serve", "demo", "--ndjson", "-", ...SMALL, "--end", "yesterday"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--end: "yesterday" is not a date (YYYY-MM-DD)');
  });
});
