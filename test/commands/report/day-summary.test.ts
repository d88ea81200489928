/**
 * `--summary json` of whole-day targets means one thing for files and tables: `days_written` counts the days
 * whose content is new or changed, `days_unchanged` those fetched again as the last run left them (a rerun
 * was 0 written for files but every day for a table). And `--tz UTC`, the service's own days, is accepted.
 */
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startDemoService } from "../../helpers/demo-service";
import type { CliResult } from "../../helpers/spawn-cli";

const NOW = new Date("2026-11-02T06:00:00Z");

async function newService() {
  const demo = await startDemoService({ now: NOW });
  const { service, dir } = demo;
  mkdirSync(join(dir, "out"));
  const run = (args: string[], extra: Record<string, string> = {}): Promise<CliResult> =>
    demo.run(args, undefined, extra);
  /** Restates one hour of 2026-10-31: its spending goes up. */
  const restate = async () => {
    const line = service.lines.find(
      (l) => l.hour.startsWith("2026-10-31") && l.keyword_id === undefined && l.advertiser === "Acme Outdoor",
    );
    if (!line) throw new Error("no data on 2026-10-31");
    await demo.load([{ ...line, spending: line.spending + 12.5 }]);
  };
  return { dir, run, restate };
}

const summaryOf = (result: CliResult) => JSON.parse(result.stderr.trim().split("\n").at(-1) as string);

const JOB = ["report", "--dims", "campaign,date", "--incremental", "--start", "2026-10-25", "--lookback", "3d"];

describe("--summary json day counts", () => {
  it.each([
    ["{date} files", "out/{date}.csv"],
    ["a SQLite table", "sqlite:out/stats.db"],
  ])(
    "%s: a rerun writes 0 days and finds 3 unchanged; a restated day is 1 written, 1 changed",
    async (_kind, output) => {
      const { run, restate } = await newService();
      const first = await run([...JOB, "-o", output, "--summary", "json"]);
      expect(first.code, first.stderr).toBe(0);
      expect(summaryOf(first)).toMatchObject({ days_written: 8, days_changed: 0, days_unchanged: 0 });
      // The fields in the order docs/topics/cron.md lists them, as a plain export writes them.
      expect(Object.keys(summaryOf(first)).slice(-4)).toEqual(["rows", "requests", "retries", "throttled"]);

      const rerun = await run([...JOB, "-o", output, "--summary", "json"]);
      expect(rerun.code, rerun.stderr).toBe(0);
      expect(summaryOf(rerun)).toMatchObject({ days_written: 0, days_changed: 0, days_unchanged: 3 });

      await restate();
      const restated = await run([...JOB, "-o", output, "--summary", "json"]);
      expect(restated.code, restated.stderr).toBe(0);
      expect(summaryOf(restated)).toMatchObject({ days_written: 1, days_changed: 1, days_unchanged: 2 });
    },
  );
});

describe("--tz UTC with whole-day targets", () => {
  it("--tz UTC and Etc/UTC are the service's days: accepted, the same files; another zone is still refused", async () => {
    const { dir, run } = await newService();
    const range = ["report", "--dims", "campaign,date", "--from", "2026-10-30", "--to", "2026-11-01"];
    const plain = await run([...range, "-o", "out/plain-{date}.csv"]);
    expect(plain.code, plain.stderr).toBe(0);
    for (const zone of ["UTC", "Etc/UTC"]) {
      const zoned = await run([...range, "--tz", zone, "-o", `out/${zone.replace("/", "-")}-{date}.csv`]);
      expect(zoned.code, zoned.stderr).toBe(0);
      expect(zoned.stderr).toBe("");
      for (const day of ["2026-10-30", "2026-11-01"]) {
        const name = `${zone.replace("/", "-")}-${day}.csv`;
        expect(readFileSync(join(dir, "out", name), "utf8")).toBe(
          readFileSync(join(dir, "out", `plain-${day}.csv`), "utf8"),
        );
      }
    }
    const fromEnv = await run([...range, "-o", "out/env-{date}.csv"], { ADREPORT_TZ: "Etc/UTC" });
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    expect(fromEnv.stderr).not.toContain("warning");
    const berlin = await run([...range, "--tz", "Europe/Berlin", "-o", "out/b-{date}.csv"]);
    expect(berlin.code).toBe(2);
    expect(berlin.stderr).toMatch(/--tz cannot be used with/);
    expect(readdirSync(join(dir, "out")).filter((n) => n.startsWith("b-"))).toEqual([]);
  });

  it("a database that cannot be opened is a failed run in --summary too", async () => {
    const { run } = await newService();
    const result = await run([...JOB, "-o", "sqlite:no-such-folder/stats.db", "--summary", "json"]);
    expect(result.code).toBe(1);
    const [json = "", ...rest] = result.stderr.trim().split("\n");
    expect(rest).toEqual([expect.stringMatching(/^adreport: cannot write no-such-folder\/stats.db: /)]);
    const summary = JSON.parse(json);
    expect(summary).toMatchObject({ outcome: "failed", rows: 0, requests: 0 });
    expect(summary.error).toMatch(/no-such-folder/);
  });
});
