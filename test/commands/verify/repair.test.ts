/**
 * `verify --repair` where a plain repair of the differing days is not enough (found from outside): a table
 * or database file gone is every day of the job, repaired whole and counted so; a state edited by hand is
 * refused before anything is written; a day whose file is a named pipe is named and left, the others
 * repaired all the same.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { at, newService, snapshot } from "../../helpers/incremental";

const NOW = at("2026-11-02");
const FILES = ["report", "--dims", "campaign,date", "-o", "out/{date}.csv", "--incremental", "-q"];
const TABLE = ["report", "--dims", "campaign,date", "-o", "sqlite:ads.db", "--incremental", "-q"];

async function jobOf(run: Awaited<ReturnType<typeof newService>>["run"]): Promise<string> {
  const list = await run(["state", "list", "--format", "json"], NOW);
  const jobs = JSON.parse(list.stdout) as Array<{ job: string }>;
  expect(jobs).toHaveLength(1);
  return (jobs[0] as { job: string }).job;
}

function tableDays(path: string): unknown[] {
  const db = new Database(path, { readonly: true });
  try {
    return db
      .prepare(
        "SELECT date, COUNT(*) AS n, SUM(clicks) AS clicks FROM adreport_campaign_date GROUP BY date ORDER BY date",
      )
      .all();
  } finally {
    db.close();
  }
}

describe("verify --repair: every day of a table that is gone", () => {
  it("a dropped table and a removed database file: every day repaired, and the counts add up", async () => {
    const { dir, run } = await newService();
    expect((await run([...TABLE, "--start", "2026-10-01"], NOW)).code).toBe(0);
    const job = await jobOf(run);
    const path = join(dir, "ads.db");
    const before = tableDays(path);
    expect(before.length).toBeGreaterThan(20);

    const db = new Database(path);
    db.exec("DROP TABLE adreport_campaign_date");
    db.close();
    const dropped = await run(["verify", job, "--repair"], NOW);
    expect(dropped.stderr).toMatch(/32 days checked, every one matches; 32 repaired\n/);
    expect(dropped.code, dropped.stderr).toBe(0);
    expect(tableDays(path)).toEqual(before);

    rmSync(path);
    const removed = await run(["verify", job, "--repair", "--format", "json"], NOW);
    expect(removed.code, removed.stderr).toBe(0);
    expect(JSON.parse(removed.stdout)).toMatchObject({ days_checked: 32, days_repaired: 32, differences: [] });
    expect(tableDays(path)).toEqual(before);
  });
  it("a week job's table dropped is repaired in one run, not one a week", async () => {
    const { dir, run } = await newService();
    const weeks = [...TABLE, "--granularity", "week", "--start", "2026-09-28"];
    expect((await run(weeks, NOW)).code).toBe(0);
    const job = await jobOf(run);
    const path = join(dir, "ads.db");
    const before = tableDays(path);
    expect(before).toHaveLength(5);
    const db = new Database(path);
    db.exec("DROP TABLE adreport_campaign_date");
    db.close();
    const repaired = await run(["verify", job, "--repair"], NOW);
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(repaired.stderr.match(/repairing/g)).toEqual(["repairing"]);
    expect(repaired.stderr).toContain("repairing 2026-09-28..2026-11-01");
    expect(tableDays(path)).toEqual(before);
  });
  it("a day files' folder gone is refused before anything is written, with the mkdir that mends it", async () => {
    const { dir, run } = await newService();
    mkdirSync(join(dir, "out"));
    expect((await run([...FILES, "--start", "2026-10-01"], NOW)).code).toBe(0);
    const job = await jobOf(run);
    rmSync(join(dir, "out"), { recursive: true });
    const refused = await run(["verify", job, "--repair"], NOW);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain(`hint: create it first: mkdir -p ${join(dir, "out")}\n`);
    mkdirSync(join(dir, "out"));
    const repaired = await run(["verify", job, "--repair"], NOW);
    expect(repaired.stderr).toMatch(/32 days checked, every one matches; 32 repaired\n/);
    expect(repaired.code, repaired.stderr).toBe(0);
  });
});

describe("verify --repair: the job's plan and its warnings", () => {
  it("ADREPORT_TZ left over is said once, by the job's plan, before the days are repaired", async () => {
    const { dir, run } = await newService();
    mkdirSync(join(dir, "out"));
    expect((await run([...FILES, "--start", "2026-10-01"], NOW)).code).toBe(0);
    const job = await jobOf(run);
    writeFileSync(join(dir, "out", "2026-10-05.csv"), "not what was written\n");
    const repaired = await run(["verify", job, "--repair"], NOW, { ADREPORT_TZ: "Europe/Berlin" });
    expect(repaired.code, repaired.stderr).toBe(0);
    const warning =
      'adreport: warning: the time zone "Europe/Berlin" (environment) is not used: {date} in --output keeps the service\'s UTC days\n';
    expect(repaired.stderr.startsWith(`${warning}adreport: repairing 2026-10-05\n`), repaired.stderr).toBe(true);
    expect(repaired.stderr.split(warning)).toHaveLength(2);
  });
});

describe("verify --repair: a state edited by hand", () => {
  it("is refused (exit 2) naming its file before any day file or state is written", async () => {
    const { dir, run } = await newService();
    mkdirSync(join(dir, "out"));
    expect((await run([...FILES, "--start", "2026-10-01"], NOW)).code).toBe(0);
    const job = await jobOf(run);
    const folder = join(dir, "config", "state");
    const file = join(folder, `${job}.json`);
    const original = readFileSync(file, "utf8");
    rmSync(join(dir, "out", "2026-10-03.csv"));
    const files = snapshot(dir);

    // The job's metrics edited: its day files would be written with other columns, under another job.
    const edited = JSON.parse(original);
    edited.job.metrics = ["views", "clicks"];
    writeFileSync(file, JSON.stringify(edited));
    const states = readdirSync(folder).sort();
    const metrics = await run(["verify", job, "--repair"], NOW);
    expect(metrics.code, metrics.stderr).toBe(2);
    expect(metrics.stderr).toContain(`the state file ${file}`);
    expect(metrics.stderr).toMatch(/^hint: .*adreport state reset /m);
    expect(metrics.stderr).not.toMatch(/repairing|internal error/);
    expect(snapshot(dir)).toEqual(files);
    expect(readdirSync(folder).sort()).toEqual(states);

    // Its dimensions no list at all: not adreport's shape, said so rather than an internal error.
    writeFileSync(file, JSON.stringify({ ...edited, job: { ...edited.job, dimensions: 5 } }));
    const shape = await run(["verify", job, "--repair"], NOW);
    expect(shape.code, shape.stderr).toBe(2);
    expect(shape.stderr).toContain(`the state file ${file} is not in adreport's shape`);
    expect(snapshot(dir)).toEqual(files);

    // The state file renamed by hand: the run would look for its state elsewhere and find none.
    writeFileSync(file, original);
    const renamed = join(folder, "0badcafe.json");
    execFileSync("mv", [file, renamed]);
    const moved = await run(["verify", "0badcafe", "--repair"], NOW);
    expect(moved.code, moved.stderr).toBe(2);
    expect(moved.stderr).toContain(`the state file ${renamed}`);
    expect(snapshot(dir)).toEqual(files);
    expect(readdirSync(folder).sort()).toEqual(["0badcafe.json", `${job}.run.json`].sort());
  });
});

describe("verify --repair: a day file that is not a file", () => {
  it("names the named pipe's day, leaves it, and repairs every other day (exit 1)", async () => {
    const { dir, run, plainDay } = await newService();
    mkdirSync(join(dir, "out"));
    expect((await run([...FILES, "--start", "2026-10-01"], NOW)).code).toBe(0);
    const job = await jobOf(run);
    const out = (day: string) => join(dir, "out", `${day}.csv`);
    for (const day of ["2026-10-03", "2026-10-04", "2026-10-08", "2026-10-20"]) rmSync(out(day));
    execFileSync("mkfifo", [out("2026-10-03")]);

    const result = await run(["verify", job, "--repair"], NOW);
    expect(result.stderr).toMatch(
      /^adreport: 2026-10-03: .*2026-10-03\.csv is a named pipe \(FIFO\): not written to$/m,
    );
    expect(result.stderr).toMatch(/32 days checked, 1 differs; 3 repaired, 1 could not be written/);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toMatch(/^2026-10-03 {2}not a file: .*2026-10-03\.csv is a named pipe \(FIFO\)$/m);
    expect(result.stdout.trim().split("\n")).toHaveLength(1);
    expect(statSync(out("2026-10-03")).isFIFO()).toBe(true);
    for (const day of ["2026-10-04", "2026-10-08", "2026-10-20"]) {
      expect(readFileSync(out(day), "utf8"), day).toBe(await plainDay(day, NOW));
    }
  });
});

describe("verify --repair: the job's own day-file words", () => {
  it("a TSV or NDJSON job is repaired without a warning about a --delimiter nobody typed", async () => {
    for (const file of ["out/{date}.tsv", "out/{date}.ndjson"]) {
      const { dir, run } = await newService();
      mkdirSync(join(dir, "out"));
      const made = await run(
        ["report", "--dims", "campaign,date", "-o", file, "--incremental", "--start", "2026-10-25", "-q"],
        NOW,
      );
      expect(made.code, made.stderr).toBe(0);
      const job = await jobOf(run);
      rmSync(join(dir, file.replace("{date}", "2026-11-01")));
      const repaired = await run(["verify", job, "--repair"], NOW);
      expect(repaired.code, repaired.stderr).toBe(0);
      expect(repaired.stderr).toMatch(/2026-11-01: its file was missing; written again/);
      expect(repaired.stderr).not.toMatch(/delimiter|warning/);
    }
  });
});
