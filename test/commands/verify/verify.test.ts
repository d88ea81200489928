/**
 * `adreport verify JOB` against a real `serve` (in-process, injected clock): an incremental job's day files
 * and table compared with its ledger, every injected fault found with a line starting with its date and
 * exit 7, no false positive on an untouched job, `--repair` putting back exactly what differs, and
 * `--against-service` naming a day the service restated after the lookback passed it.
 */
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { at, exports, newService, snapshot } from "../../helpers/incremental";

const CRON = ["report", "--dims", "campaign,date", "-o", "out/{date}.csv", "--incremental", "-q"];
const NOW = at("2026-11-02");

async function jobOf(run: (args: string[], now: Date) => Promise<{ code: number | null; stdout: string }>) {
  const list = await run(["state", "list", "--format", "json"], NOW);
  const jobs = JSON.parse(list.stdout) as Array<{ job: string }>;
  expect(jobs).toHaveLength(1);
  return (jobs[0] as { job: string }).job;
}

describe("adreport verify: {date} files", () => {
  it("matches an untouched job, finds each fault with its date, and --repair puts every file back", async () => {
    const { dir, run } = await newService();
    mkdirSync(join(dir, "out"));
    const first = await run([...CRON, "--start", "2026-10-01"], NOW);
    expect(first.code, first.stderr).toBe(0);
    const job = await jobOf(run);
    const state = JSON.parse(readFileSync(join(dir, "config", "state", `${job}.json`), "utf8"));
    expect(Object.keys(state.days)).toHaveLength(32);
    expect(state.days["2026-10-01"]).toMatchObject({ run: expect.any(String), requests: expect.any(Number) });
    expect(state.write).toEqual({ format: "csv", delimiter: ",", bom: false, spreadsheet: false });

    const clean = await run(["verify", job], NOW);
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stdout).toBe("");
    expect(clean.stderr).toMatch(/32 days checked, every one matches/);
    const before = snapshot(dir);

    const out = (day: string) => join(dir, "out", `${day}.csv`);
    rmSync(out("2026-10-03"));
    const edited = readFileSync(out("2026-10-05"), "utf8").split("\n");
    writeFileSync(out("2026-10-05"), edited.slice(0, -2).concat([""]).join("\n")); // last row deleted
    appendFileSync(out("2026-10-07"), edited.slice(1).join("\n")); // rows doubled
    writeFileSync(out("2026-10-09"), readFileSync(out("2026-10-09"), "utf8").slice(0, -7)); // truncated
    const numbers = readFileSync(out("2026-10-11"), "utf8");
    writeFileSync(
      out("2026-10-11"),
      numbers.replace(/,(\d+),/, (_m, n) => `,${Number(n) + 1},`),
    ); // a count edited
    copyFileSync(out("2026-10-12"), out("2026-11-05")); // a file the job never wrote

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
    expect(lines[1]).toMatch(/^2026-10-05 {2}rows \d+ -> \d+; /);
    expect(found.stderr).toMatch(/5 differ/);
    // After the job's last day, files are the next run's: named only when --to asks for those days.
    const stray = await run(["verify", job, "--from", "2026-11-01", "--to", "2026-11-10"], NOW);
    expect(stray.code, stray.stderr).toBe(7);
    expect(stray.stdout).toMatch(
      /^2026-11-05 {2}a file after the job's last day \(2026-11-01\) the job did not write: /,
    );

    const json = await run(["verify", job, "--format", "json"], NOW);
    expect(json.code).toBe(7);
    const doc = JSON.parse(json.stdout);
    expect(doc).toMatchObject({ job, days_checked: 32 });
    expect(doc.differences.map((d: { kind: string }) => d.kind)).toEqual([
      "missing",
      "differs",
      "differs",
      expect.stringMatching(/differs|unreadable/),
      "differs",
    ]);

    const repaired = await run(["verify", job, "--repair"], NOW);
    expect(repaired.stderr).toMatch(/repairing 2026-10-03/);
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(repaired.stdout).toBe("");
    rmSync(out("2026-11-05"));
    const after = snapshot(dir);
    for (const [name, file] of before) expect(after.get(name)?.text, name).toBe(file.text);
    expect(exports(dir)).toEqual([...before.keys()]);
    const again = await run(["verify", job], NOW);
    expect(again.code, again.stderr).toBe(0);
  });

  it("--against-service names a day the service restated after the lookback passed it; --repair rewrites it", async () => {
    const { dir, run, restate, anHourOf, plainDay } = await newService();
    mkdirSync(join(dir, "out"));
    expect((await run([...CRON, "--start", "2026-10-01"], NOW)).code).toBe(0);
    const job = await jobOf(run);
    await restate(anHourOf("2026-10-10"));
    const quiet = await run(["verify", job], NOW);
    expect(quiet.code, quiet.stderr).toBe(0);
    const service = await run(["verify", job, "--against-service"], NOW);
    expect(service.code, service.stderr).toBe(7);
    expect(service.stdout).toMatch(/^2026-10-10 {2}service: spending [\d,.]+ -> [\d,.]+; service: conversions/m);
    expect(service.stdout.trim().split("\n")).toHaveLength(1);
    const repaired = await run(["verify", job, "--against-service", "--repair"], NOW);
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(readFileSync(join(dir, "out", "2026-10-10.csv"), "utf8")).toBe(await plainDay("2026-10-10", NOW));
  });
});

describe("adreport verify: a database table", () => {
  it("finds a day emptied and a day doubled; --repair mends them", async () => {
    const { dir, run } = await newService();
    const args = ["report", "--dims", "campaign,date", "-o", "sqlite:ads.db", "--incremental", "-q"];
    expect((await run([...args, "--start", "2026-10-01"], NOW)).code).toBe(0);
    const job = await jobOf(run);
    expect((await run(["verify", job], NOW)).code).toBe(0);
    const db = new Database(join(dir, "ads.db"));
    const table = "adreport_campaign_date";
    db.prepare(`DELETE FROM ${table} WHERE date = '2026-10-04'`).run();
    db.prepare(`INSERT INTO ${table} SELECT * FROM ${table} WHERE date = '2026-10-06'`).run();
    db.close();
    const found = await run(["verify", job], NOW);
    expect(found.code, found.stderr).toBe(7);
    expect(found.stdout).toMatch(/^2026-10-04 {2}rows \d+ -> 0/m);
    expect(found.stdout).toMatch(/^2026-10-06 {2}rows (\d+) -> \d+/m);
    const repaired = await run(["verify", job, "--repair"], NOW);
    expect(repaired.code, repaired.stderr).toBe(0);
    expect((await run(["verify", job], NOW)).code).toBe(0);
  });

  it("a table dropped or a database file removed is said in one line, and the file is not made again", async () => {
    const { dir, run } = await newService();
    const args = ["report", "--dims", "campaign,date", "-o", "sqlite:ads.db", "--incremental", "-q"];
    expect((await run([...args, "--start", "2026-10-01"], NOW)).code).toBe(0);
    const job = await jobOf(run);
    const db = new Database(join(dir, "ads.db"));
    db.exec("DROP TABLE adreport_campaign_date");
    db.close();
    const dropped = await run(["verify", job], NOW);
    expect(dropped.code, dropped.stderr).toBe(7);
    expect(dropped.stdout).toMatch(
      /^2026-10-01 {2}no table adreport_campaign_date in \S+: every day of the job is gone \(32\)\n$/,
    );
    rmSync(join(dir, "ads.db"));
    const removed = await run(["verify", job], NOW);
    expect(removed.code, removed.stderr).toBe(7);
    expect(removed.stdout).toMatch(/^2026-10-01 {2}no database file \S+ads\.db: every day/);
    expect(existsSync(join(dir, "ads.db"))).toBe(false);
  });

  it("refuses an unknown job (2) and a bad --from (2)", async () => {
    const { run } = await newService();
    expect((await run(["verify", "0123abcd"], NOW)).code).toBe(2);
    expect((await run(["verify", "0123abcd", "--from", "2026-02-31"], NOW)).code).toBe(2);
  });
});
