/**
 * Whole days from a plan to what the engine tells and writes, against a MockAgent: {date} files, a SQLite
 * table, an --incremental job run after run (days unchanged, restated, nothing to do), and a failed run
 * that leaves nothing.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { engineRun } from "../../../helpers/engine-run";
import { mockAgent } from "../../../helpers/mock-api";
import { type DayMetrics, serveDays } from "../../../helpers/mock-days";
import { tempDir } from "../../../helpers/temp";

const DAYS = ["--dims", "campaign,date", "--metrics", "views,clicks"];
const WEEK = [...DAYS, "--from", "2026-11-01", "--to", "2026-11-03"];
const steady: DayMetrics = (_, campaign) => ({ views: 100 * campaign, clicks: campaign });

beforeEach(() => {
  vi.spyOn(Math, "random").mockReturnValue(0);
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe("a run of whole days", () => {
  it("{date} files: one file a day, in place together, and a summary of the days", async () => {
    const mock = mockAgent();
    serveDays(mock, 2, () => steady);
    const cwd = tempDir();
    const run = await engineRun([...WEEK, "-o", "{date}.csv"], { dispatcher: mock.agent, cwd });
    expect(run.error).toBeUndefined();
    expect(run.story()).toEqual(["progress", "sent p1", "response 200 p1", "summary ok"]);
    expect(readdirSync(cwd).sort()).toEqual(["2026-11-01.csv", "2026-11-02.csv", "2026-11-03.csv"]);
    expect(readFileSync(join(cwd, "2026-11-02.csv"), "utf8")).toBe(
      "campaign_id,name,date,views,clicks\n1,Campaign 1,2026-11-02,100,1\n2,Campaign 2,2026-11-02,200,2\n",
    );
    expect(run.summary()).toEqual({
      job: null,
      outcome: "ok",
      from: "2026-11-01",
      to: "2026-11-03",
      days_written: 3,
      days_changed: 0,
      days_unchanged: 0,
      rows: 6,
      requests: 1,
      retries: 0,
      throttled: 0,
    });
    expect(run.done).toEqual({ rows: 6 });
  });

  it("a SQLite table: every day's rows in one transaction, with the run's load", async () => {
    const mock = mockAgent();
    serveDays(mock, 2, () => steady);
    const cwd = tempDir();
    const run = await engineRun([...WEEK, "-o", "sqlite:ads.db"], { dispatcher: mock.agent, cwd });
    expect(run.error).toBeUndefined();
    expect(run.summary()).toMatchObject({ outcome: "ok", days_written: 3, rows: 6 });
    const db = new Database(join(cwd, "ads.db"), { readonly: true });
    try {
      const rows = db
        .prepare("SELECT date, campaign_id, views FROM adreport_campaign_date ORDER BY date, campaign_id")
        .all();
      expect(rows).toHaveLength(6);
      expect(rows[0]).toEqual({ date: "2026-11-01", campaign_id: 1, views: 100 });
      const loads = db.prepare("SELECT day, row_count AS rows, job FROM adreport_loads ORDER BY day").all();
      const job = expect.stringMatching(/^[0-9a-f]{8}$/);
      expect(loads).toEqual([
        { day: "2026-11-01", rows: 2, job },
        { day: "2026-11-02", rows: 2, job },
        { day: "2026-11-03", rows: 2, job },
      ]);
    } finally {
      db.close();
    }
  });

  it("a run that fails: no day file, the failure in its summary", async () => {
    const mock = mockAgent();
    mock.pool
      .intercept({ path: (p) => p.startsWith("/v1/report"), method: "GET" })
      .reply(503, '{"error":{"status":503,"code":"unavailable","message":"down"}}', {
        headers: { "content-type": "application/json" },
      })
      .times(2);
    const cwd = tempDir();
    const run = await engineRun([...WEEK, "--retries", "1", "-o", "{date}.csv"], { dispatcher: mock.agent, cwd });
    expect(run.error?.message).toBe("the service answered 503: down (page 1: gave up after 2 attempts)");
    expect(run.story()).toEqual([
      "progress",
      "sent p1",
      "response 503 p1",
      "retry 1/1",
      "sent p1",
      "response 503 p1",
      "summary failed",
    ]);
    expect(run.summary()).toMatchObject({ outcome: "failed", days_written: 0, requests: 2, retries: 1 });
    expect(readdirSync(cwd)).toEqual([]);
  });
});

describe("an --incremental job, run after run", () => {
  /** The job's runs share a HOME (their state) and a folder, each at `now`, against a service of `metrics`. */
  function job(extra: string[] = []) {
    const home = tempDir("adreport-home-");
    const cwd = tempDir();
    let metrics: DayMetrics = steady;
    const argv = [...DAYS, "--incremental", "--start", "2026-11-18", ...extra, "-o", "{date}.csv"];
    return {
      cwd,
      restate(next: DayMetrics) {
        metrics = next;
      },
      async run(now = "2026-11-23T10:00:00Z") {
        const mock = mockAgent();
        serveDays(mock, 2, () => metrics);
        const run = await engineRun(argv, { dispatcher: mock.agent, cwd, env: { HOME: home }, now: new Date(now) });
        return { ...run, asked: mock.seen.map((r) => `${r.params.get("from")}..${r.params.get("to")}`) };
      },
    };
  }

  it("the first run exports from --start to yesterday and names its job", async () => {
    const first = await job().run();
    expect(first.error).toBeUndefined();
    expect(first.asked).toEqual(["2026-11-18..2026-11-22"]);
    expect(first.summary()).toMatchObject({
      job: expect.stringMatching(/^[0-9a-f]{8}$/),
      outcome: "ok",
      from: "2026-11-18",
      to: "2026-11-22",
      days_written: 5,
    });
  });

  it("the next run fetches the lookback days again and writes none that did not change", async () => {
    const days = job();
    await days.run();
    const next = await days.run("2026-11-24T10:00:00Z");
    expect(next.asked).toEqual(["2026-11-20..2026-11-23"]);
    expect(next.said()).toEqual([]);
    expect(next.summary()).toMatchObject({ from: "2026-11-20", to: "2026-11-23", days_written: 1, days_unchanged: 3 });
  });

  it("a restated day: said as a change, written again", async () => {
    const days = job();
    await days.run();
    days.restate((day, campaign) => ({ views: day === "2026-11-21" ? 999 : 100 * campaign, clicks: campaign }));
    const next = await days.run();
    // The day's sums over both campaigns, as the state recorded them and as they are now.
    expect(next.said()).toEqual(["2026-11-21: views 300 -> 1,998"]);
    expect(next.summary()).toMatchObject({ days_changed: 1, days_unchanged: 2, days_written: 1 });
    expect(readFileSync(join(days.cwd, "2026-11-21.csv"), "utf8")).toContain(",999,");
  });

  it("a day file deleted since: written again, and said", async () => {
    const days = job();
    await days.run();
    rmSync(join(days.cwd, "2026-11-22.csv"));
    const next = await days.run();
    expect(next.said()).toEqual(["2026-11-22: its file was missing; written again"]);
    expect(existsSync(join(days.cwd, "2026-11-22.csv"))).toBe(true);
  });

  it("--lookback 0d run again the same day: nothing to do, no request", async () => {
    const days = job(["--lookback", "0d"]);
    await days.run();
    const again = await days.run();
    expect(again.asked).toEqual([]);
    expect(again.story()).toEqual([
      "note: nothing to do: every day up to 2026-11-22 is exported and today (2026-11-23) is not complete",
      "summary nothing to do",
    ]);
    expect(again.summary()).toMatchObject({ outcome: "nothing to do", from: undefined, to: undefined });
  });
});
