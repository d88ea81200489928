/**
 * `--incremental` into `{date}` files when the service restates a day without changing its totals, when a
 * day file was changed by hand, when the state was kept by an earlier adreport (totals only), and when a
 * clock ran ahead or a state holds a day that is no day.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { at, exports, newService, snapshot } from "../../helpers/incremental";
import type { RefLine } from "../../helpers/reference";

const CRON = ["report", "--dims", "campaign,date", "-o", "out/{date}.csv", "--incremental"];

function stateFile(dir: string): string {
  const folder = join(dir, "config", "state");
  return join(folder, readdirSync(folder).find((n) => /^[0-9a-f]{8}\.json$/.test(n)) as string);
}

describe("report --incremental: a restatement that keeps the day's totals", () => {
  it("rewrites the day file when views move from one campaign to another, totals unchanged", async () => {
    const { dir, service, run, load, plainDay } = await newService();
    mkdirSync(join(dir, "out"));
    const now = at("2026-11-02");
    const first = await run([...CRON, "--start", "2026-10-28"], now);
    expect(first.code, first.stderr).toBe(0);

    const ofDay = service.lines.filter(
      (l) => l.hour.startsWith("2026-10-31") && l.keyword_id === undefined && l.advertiser === "Acme Outdoor",
    );
    const from = ofDay.find((l) => l.views >= 50 && l.clicks - l.bot_clicks >= 1 && l.spending >= 0.25) as RefLine;
    const to = ofDay.find((l) => l.campaign_id !== from.campaign_id) as RefLine;
    expect(from && to).toBeTruthy();
    const micros = (n: number) => Math.round(n * 1e6) / 1e6;
    await load([
      { ...from, views: from.views - 50, clicks: from.clicks - 1, spending: micros(from.spending - 0.25) },
      { ...to, views: to.views + 50, clicks: to.clicks + 1, spending: micros(to.spending + 0.25) },
    ]);

    const again = await run([...CRON, "--summary", "json"], now);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/^adreport: 2026-10-31: rows changed, totals the same$/m);
    expect(again.stderr).not.toMatch(/->/);
    expect(JSON.parse(again.stderr.trim().split("\n").at(-1) as string)).toMatchObject({ days_changed: 1 });
    expect(readFileSync(join(dir, "out", "2026-10-31.csv"), "utf8")).toBe(await plainDay("2026-10-31", now));
  });

  it("writes a day file changed by hand again when it is inside the lookback, and leaves the others", async () => {
    const { dir, run, plainDay } = await newService();
    mkdirSync(join(dir, "out"));
    const now = at("2026-11-02");
    expect((await run([...CRON, "--start", "2026-10-25"], now)).code).toBe(0);
    const inside = join(dir, "out", "2026-10-31.csv");
    const outside = join(dir, "out", "2026-10-26.csv");
    writeFileSync(inside, `${readFileSync(inside, "utf8")}99,damaged,2026-10-31,1,1\n`);
    writeFileSync(outside, "damaged\n");
    const before = snapshot(dir);
    const again = await run([...CRON], now);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/^adreport: 2026-10-31: its file was changed since it was written; written again$/m);
    expect(readFileSync(inside, "utf8")).toBe(await plainDay("2026-10-31", now));
    expect(readFileSync(outside, "utf8")).toBe("damaged\n");
    for (const [name, file] of before) if (name !== "2026-10-31.csv") expect(snapshot(dir).get(name)).toEqual(file);
  });

  it("a state kept by an earlier adreport (totals only): the lookback's days are written again once", async () => {
    const { dir, run } = await newService();
    mkdirSync(join(dir, "out"));
    const now = at("2026-11-02");
    expect((await run([...CRON, "--start", "2026-10-25"], now)).code).toBe(0);
    const path = stateFile(dir);
    const state = JSON.parse(readFileSync(path, "utf8"));
    for (const record of Object.values(state.days) as Array<{ digest?: string }>) delete record.digest;
    writeFileSync(path, JSON.stringify(state), { mode: 0o600 });
    const once = await run([...CRON], now);
    expect(once.code, once.stderr).toBe(0);
    expect(once.stderr.match(/written again once: the state held only its totals/g)).toHaveLength(3);
    const twice = await run([...CRON], now);
    expect(twice.code, twice.stderr).toBe(0);
    expect(twice.stderr).toBe("");
  });
});

describe("report --incremental: a state from a clock that ran ahead, or with a day that is no day", () => {
  it("a last day after yesterday is named in a warning, and the run starts from yesterday minus the lookback", async () => {
    const { dir, run, plainDay } = await newService();
    mkdirSync(join(dir, "out"));
    const now = at("2026-11-02");
    expect((await run([...CRON, "--start", "2026-10-25"], at("2026-10-28"))).code).toBe(0);
    // A run under a clock set months ahead: the days after the real yesterday come back empty.
    const ahead = await run([...CRON], at("2027-06-10"));
    expect(ahead.code, ahead.stderr).toBe(0);
    expect(JSON.parse(readFileSync(stateFile(dir), "utf8")).lastDay).toBe("2027-06-09");

    const back = await run([...CRON, "--summary", "json"], now);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stderr).toMatch(
      /^adreport: warning: the state of job [0-9a-f]{8} says every day up to 2027-06-09 is exported, after yesterday \(2026-11-01\)/m,
    );
    expect(back.stderr).not.toMatch(/nothing to do/);
    expect(JSON.parse(back.stderr.trim().split("\n").at(-1) as string)).toMatchObject({
      outcome: "ok",
      from: "2026-10-30",
      to: "2026-11-01",
    });
    expect(readFileSync(join(dir, "out", "2026-11-01.csv"), "utf8")).toBe(await plainDay("2026-11-01", now));
    expect(JSON.parse(readFileSync(stateFile(dir), "utf8")).lastDay).toBe("2026-11-01");
    const next = await run([...CRON, "--lookback", "0d"], now);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toMatch(/nothing to do/);
    expect(next.stderr).not.toMatch(/warning/);
    expect(exports(dir).every((name) => name <= "2027-06-09.csv")).toBe(true);
  });

  it("{date} without --incremental: a --to after the last complete day is exit 2, no file written", async () => {
    const { dir, run } = await newService();
    mkdirSync(join(dir, "out"));
    const result = await run(
      ["report", "--dims", "campaign,date", "--from", "2026-10-30", "--to", "2027-06-09", "-o", "out/{date}.csv"],
      at("2026-11-02"),
    );
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/--to 2027-06-09 is after the last complete UTC day \(2026-11-01\)/);
    expect(readdirSync(join(dir, "out"))).toEqual([]);
  });

  it("a state whose last day is not a date: exit 2 naming the state file, the value and state reset", async () => {
    const { dir, run } = await newService();
    mkdirSync(join(dir, "out"));
    const now = at("2026-11-02");
    expect((await run([...CRON, "--start", "2026-10-25"], now)).code).toBe(0);
    const path = stateFile(dir);
    const state = JSON.parse(readFileSync(path, "utf8"));
    writeFileSync(path, JSON.stringify({ ...state, lastDay: "2026-02-31" }), { mode: 0o600 });
    const result = await run([...CRON], now);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).not.toMatch(/--from|NaN/);
    expect(result.stderr).toContain(`the state file ${path} records the last day "2026-02-31", which is not a date`);
    expect(result.stderr).toContain(`adreport state reset ${state.id}`);
    const reset = await run(["state", "reset", state.id], now);
    expect(reset.code, reset.stderr).toBe(0);
  });
});

describe("report --incremental: locks", () => {
  it("a run refused by the job's lock: its summary names the job and no range it never planned", async () => {
    const { dir, run } = await newService();
    mkdirSync(join(dir, "out"));
    const now = at("2026-11-02");
    expect((await run([...CRON, "--start", "2026-10-25"], now)).code).toBe(0);
    const id = JSON.parse(readFileSync(stateFile(dir), "utf8")).id as string;
    writeFileSync(join(dir, "config", "state", `${id}.lock`), `${process.pid}\n`);
    const refused = await run([...CRON, "--summary", "json"], now);
    expect(refused.code, refused.stderr).toBe(75);
    const summary = JSON.parse(refused.stderr.split("\n").find((line) => line.startsWith("{")) as string);
    expect(summary).toMatchObject({ job: id, outcome: "failed", requests: 0 });
    expect(summary).not.toHaveProperty("from");
    expect(summary).not.toHaveProperty("to");
  });

  it("two jobs writing one {date} template take turns: the second refuses while the first runs, and after it (the template is the first job's)", async () => {
    const { dir, start, run, reopen } = await newService();
    mkdirSync(join(dir, "out"));
    const now = at("2026-11-02");
    await reopen("delay:100ms");
    const first = start([...CRON, "--start", "2026-10-25", "--page-size", "1", "-v"], now);
    await first.waitFor("stderr", /GET .*page=2/);
    const other = await run([...CRON, "--start", "2026-10-25", "--metrics", "views,clicks"], now);
    expect(other.code, other.stderr).toBe(75);
    expect(other.stderr).toMatch(
      /^adreport: another run is writing \S+\/out\/\{date\}\.csv: pid \d+ holds \S+output-[0-9a-f]{8}\.lock$/m,
    );
    expect((await first.result).code).toBe(0);
    await reopen();
    // Once the first has run, the template is its job's: the other job's first run is refused.
    const after = await run([...CRON, "--start", "2026-10-25", "--metrics", "views,clicks"], now);
    expect(after.code, after.stderr).toBe(2);
    expect(after.stderr).toMatch(
      /^adreport: job [0-9a-f]{8} would start on \S+\/out\/\{date\}\.csv, which job [0-9a-f]{8} writes .*: it differs in metrics views,spending,clicks,conversions -> views,clicks$/m,
    );
    expect(readdirSync(join(dir, "config", "state")).filter((n) => n.endsWith(".lock"))).toEqual([]);
  });
});
