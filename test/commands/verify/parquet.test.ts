/**
 * Parquet day files (`-o 'out/{date}.parquet'`) against a real `serve` (in-process, injected clock), with
 * everything CSV day files have: an incremental job's state and ledger, unchanged days left untouched,
 * restatements found by bytes and by totals, `verify` reading each file back (a damaged or foreign file named
 * in one line), `--repair` putting back the same bytes, `--dry-run`, a named pipe refused, and a hive-style
 * folder per day that DuckDB reads as a partitioned table.
 */
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { at, newService } from "../../helpers/incremental";
import { duckdb, sqlText } from "../../helpers/parquet-read";
import type { RefLine } from "../../helpers/reference";

const CRON = ["report", "--dims", "campaign,date", "-o", "out/{date}.parquet", "--incremental", "-q"];
const NOW = at("2026-11-02");

async function jobOf(run: (args: string[], now: Date) => Promise<{ code: number | null; stdout: string }>) {
  const list = await run(["state", "list", "--format", "json"], NOW);
  const jobs = JSON.parse(list.stdout) as Array<{ job: string }>;
  expect(jobs).toHaveLength(1);
  return (jobs[0] as { job: string }).job;
}

function files(dir: string): Map<string, { bytes: Buffer; mtimeMs: number }> {
  const folder = join(dir, "out");
  return new Map(
    readdirSync(folder, { recursive: true, encoding: "utf8" })
      .filter((name) => name.endsWith(".parquet"))
      .sort()
      .map((name) => [
        name,
        { bytes: readFileSync(join(folder, name)), mtimeMs: statSync(join(folder, name)).mtimeMs },
      ]),
  );
}

describe("parquet {date} files: incremental runs and verify", () => {
  it("verify matches an untouched job, names each damaged or foreign file in one line, and --repair puts the bytes back", async () => {
    const { dir, run } = await newService();
    mkdirSync(join(dir, "out"));
    const first = await run([...CRON, "--start", "2026-10-01"], NOW);
    expect(first.code, first.stderr).toBe(0);
    const job = await jobOf(run);
    const state = JSON.parse(readFileSync(join(dir, "config", "state", `${job}.json`), "utf8"));
    expect(Object.keys(state.days)).toHaveLength(32);
    expect(state.write).toMatchObject({ format: "parquet" });
    const clean = await run(["verify", job], NOW);
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stdout).toBe("");
    expect(clean.stderr).toMatch(/32 days checked, every one matches/);
    const before = files(dir);

    const out = (day: string) => join(dir, "out", `${day}.parquet`);
    rmSync(out("2026-10-03"));
    const cut = readFileSync(out("2026-10-05"));
    writeFileSync(out("2026-10-05"), cut.subarray(0, cut.length - 9)); // cut short
    writeFileSync(out("2026-10-07"), "campaign_id,name,date,views\n1,x,2026-10-07,5\n"); // a CSV by that name
    const flipped = readFileSync(out("2026-10-09"));
    flipped.fill(0xff, 40, 80); // a data page overwritten
    writeFileSync(out("2026-10-09"), flipped);
    await duckdb(
      `COPY (SELECT 1::BIGINT AS campaign_id, 'x' AS name, DATE '2026-10-11' AS date, 2.5::DOUBLE AS views) TO ${sqlText(out("2026-10-11"))} (FORMAT parquet)`,
    ); // another program's Parquet, views a DOUBLE and no spending

    const found = await run(["verify", job], NOW);
    expect(found.code, found.stderr).toBe(7);
    const lines = found.stdout.trim().split("\n");
    expect(lines.map((l) => l.slice(0, 10))).toEqual([
      "2026-10-03",
      "2026-10-05",
      "2026-10-07",
      "2026-10-09",
      "2026-10-11",
    ]);
    expect(lines[0]).toMatch(/^2026-10-03 {2}file missing/);
    expect(lines[1]).toMatch(
      /^2026-10-05 {2}not parquet any more: it does not end with PAR1, as a Parquet file does \(cut short\?\)$/,
    );
    expect(lines[2]).toMatch(
      /^2026-10-07 {2}not parquet any more: it does not start with PAR1, as a Parquet file does$/,
    );
    expect(lines[3]).toMatch(/^2026-10-09 {2}bytes differ/);
    expect(lines[4]).toMatch(
      /^2026-10-11 {2}not parquet any more: its column "views" is DOUBLE, adreport writes INT64$/,
    );
    expect(found.stderr).not.toMatch(/\n {4}at /); // no stack trace
    expect(found.stderr).toMatch(/5 differ/);

    const repaired = await run(["verify", job, "--repair"], NOW);
    expect(repaired.code, repaired.stderr).toBe(0);
    const after = files(dir);
    expect([...after.keys()]).toEqual([...before.keys()]);
    for (const [name, file] of before) expect(after.get(name)?.bytes.equals(file.bytes), name).toBe(true);
    const again = await run(["verify", job], NOW);
    expect(again.code, again.stderr).toBe(0);
  });

  it("a later run leaves unchanged days untouched and rewrites a restated one, found by its totals or its bytes", async () => {
    const { dir, service, run, load } = await newService();
    mkdirSync(join(dir, "out"));
    expect((await run([...CRON, "--start", "2026-10-25"], NOW)).code).toBe(0);
    const before = files(dir);
    const quiet = await run(CRON, NOW);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(files(dir)).toEqual(before);

    const ofDay = service.lines.filter(
      (l) => l.hour.startsWith("2026-10-31") && l.keyword_id === undefined && l.advertiser === "Acme Outdoor",
    );
    const from = ofDay.find((l) => l.views >= 50 && l.clicks - l.bot_clicks >= 1 && l.spending >= 0.25) as RefLine;
    const to = ofDay.find((l) => l.campaign_id !== from.campaign_id) as RefLine;
    const micros = (n: number) => Math.round(n * 1e6) / 1e6;
    await load([
      { ...from, views: from.views - 50, clicks: from.clicks - 1, spending: micros(from.spending - 0.25) },
      { ...to, views: to.views + 50, clicks: to.clicks + 1, spending: micros(to.spending + 0.25) },
    ]);
    const moved = await run(
      CRON.filter((w) => w !== "-q"),
      NOW,
    );
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stderr).toMatch(/^adreport: 2026-10-31: rows changed, totals the same$/m);
    const later = files(dir);
    for (const [name, file] of before) {
      if (name === "2026-10-31.parquet") expect(later.get(name)?.bytes.equals(file.bytes)).toBe(false);
      else expect(later.get(name), name).toEqual(file);
    }
    const [views] = await duckdb(
      `SELECT CAST(sum(views) AS VARCHAR) AS n FROM read_parquet(${sqlText(join(dir, "out", "2026-10-31.parquet"))})`,
    );
    const expected = ofDay.reduce((sum, l) => sum + l.views, 0);
    expect(Number(views?.n)).toBe(expected);

    await load([{ ...from, spending: micros(from.spending + 12.5) }]);
    const restated = await run(
      CRON.filter((w) => w !== "-q"),
      NOW,
    );
    expect(restated.code, restated.stderr).toBe(0);
    expect(restated.stderr).toMatch(/^adreport: 2026-10-31: .*spending [\d,.]+ -> [\d,.]+/m);
  });

  it("--dry-run writes nothing; a named pipe in a day's place is refused (exit 1, as for CSV) before anything is written", async () => {
    const { dir, run } = await newService();
    mkdirSync(join(dir, "out"));
    const plan = await run([...CRON, "--start", "2026-10-25", "--dry-run"], NOW);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/^output: +one file per date bucket, out\/\{date\}\.parquet \(parquet\)$/m);
    expect(readdirSync(join(dir, "out"))).toEqual([]);
    execFileSync("mkfifo", [join(dir, "out", "2026-10-27.parquet")]);
    const refused = await run([...CRON, "--start", "2026-10-25"], NOW);
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).toMatch(
      /^adreport: cannot write out\/2026-10-27\.parquet: it is a named pipe \(FIFO\), not a file a \{date\} export can replace/m,
    );
    expect(readdirSync(join(dir, "out"))).toEqual(["2026-10-27.parquet"]);
  });

  it("a hive-style folder per day (date=YYYY-MM-DD/part.parquet) is made by the run and read by DuckDB as one table", async () => {
    const { dir, run } = await newService();
    mkdirSync(join(dir, "out"));
    const job = ["report", "--dims", "campaign,date", "-o", "out/date={date}/part.parquet", "--incremental", "-q"];
    const made = await run([...job, "--start", "2026-10-25"], NOW);
    expect(made.code, made.stderr).toBe(0);
    expect(existsSync(join(dir, "out", "date=2026-10-25", "part.parquet"))).toBe(true);
    // The folder's date is the file's own date column: DuckDB reads them as one (a DATE), partitioned by it.
    const glob = sqlText(join(dir, "out", "*", "part.parquet"));
    const rows = await duckdb(
      `SELECT date::VARCHAR AS day, count(*) AS n, bool_and(filename LIKE '%/date=' || date::VARCHAR || '/part.parquet') AS same FROM read_parquet(${glob}, hive_partitioning = true, filename = true) GROUP BY date ORDER BY date`,
    );
    expect(rows.length).toBeGreaterThan(3);
    expect(rows.every((r) => r.same === true)).toBe(true);
    const verified = await run(["verify", await jobOf(run)], NOW);
    expect(verified.code, verified.stderr).toBe(0);
    copyFileSync(
      join(dir, "out", "date=2026-10-26", "part.parquet"),
      join(dir, "out", "date=2026-10-27", "part.parquet"),
    );
    const moved = await run(["verify", await jobOf(run)], NOW);
    expect(moved.code).toBe(7);
    expect(moved.stdout).toMatch(/^2026-10-27 /);
  });
});
