/**
 * `adreport verify` of a job writing `-o duckdb:PATH`: the table summed by its own read-only connection
 * against the job's ledger; a day deleted or doubled by hand is found with its date, `--repair` writes it
 * again; a table dropped or a file removed is said in one line (and repaired whole), the file never made
 * again by verify alone.
 */
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { duckdbExec, duckdbRows } from "../../helpers/duckdb";
import { at, newService } from "../../helpers/incremental";

const NOW = at("2026-11-02");
const CRON = ["report", "--dims", "campaign,date", "-o", "duckdb:ads.duckdb", "--incremental", "-q"];
const TABLE = "adreport_campaign_date";
const DAYS = `SELECT strftime("date", '%Y-%m-%d'), count(*), sum(clicks), CAST(sum(spending) AS VARCHAR) FROM ${TABLE} GROUP BY 1 ORDER BY 1`;

async function jobOf(run: (args: string[], now: Date) => Promise<{ code: number | null; stdout: string }>) {
  const list = await run(["state", "list", "--format", "json"], NOW);
  const jobs = JSON.parse(list.stdout) as Array<{ job: string }>;
  expect(jobs).toHaveLength(1);
  return (jobs[0] as { job: string }).job;
}

describe("adreport verify: a DuckDB table", () => {
  it("finds a day deleted and a day doubled by hand, and --repair puts them back", async () => {
    const { dir, run } = await newService();
    expect((await run([...CRON, "--start", "2026-10-01"], NOW)).code).toBe(0);
    const job = await jobOf(run);
    const clean = await run(["verify", job], NOW);
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stderr).toMatch(/32 days checked, every one matches/);
    const path = join(dir, "ads.duckdb");
    const before = await duckdbRows(path, DAYS);
    await duckdbExec(
      path,
      `DELETE FROM ${TABLE} WHERE "date" = DATE '2026-10-04'`,
      `INSERT INTO ${TABLE} SELECT * FROM ${TABLE} WHERE "date" = DATE '2026-10-06'`,
    );
    const found = await run(["verify", job], NOW);
    expect(found.code, found.stderr).toBe(7);
    expect(found.stdout).toMatch(/^2026-10-04 {2}rows \d+ -> 0/m);
    expect(found.stdout).toMatch(/^2026-10-06 {2}rows (\d+) -> \d+/m);
    const repaired = await run(["verify", job, "--repair"], NOW);
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(await duckdbRows(path, DAYS)).toEqual(before);
    expect((await run(["verify", job], NOW)).code).toBe(0);
  });

  it("a table dropped or the file removed: one line, verify makes no file; --repair writes every day again", async () => {
    const { dir, run } = await newService();
    expect((await run([...CRON, "--start", "2026-10-01"], NOW)).code).toBe(0);
    const job = await jobOf(run);
    const path = join(dir, "ads.duckdb");
    const before = await duckdbRows(path, DAYS);
    await duckdbExec(path, `DROP TABLE ${TABLE}`);
    const dropped = await run(["verify", job], NOW);
    expect(dropped.code, dropped.stderr).toBe(7);
    expect(dropped.stdout).toMatch(
      /^2026-10-01 {2}no table adreport_campaign_date in \S+: every day of the job is gone \(32\)\n$/,
    );
    rmSync(path);
    const removed = await run(["verify", job], NOW);
    expect(removed.code, removed.stderr).toBe(7);
    expect(removed.stdout).toMatch(/^2026-10-01 {2}no database file \S+ads\.duckdb: every day/);
    expect(existsSync(path)).toBe(false);
    const repaired = await run(["verify", job, "--repair"], NOW);
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(repaired.stderr).toMatch(/32 repaired/);
    expect(await duckdbRows(path, DAYS)).toEqual(before);
  });
});
