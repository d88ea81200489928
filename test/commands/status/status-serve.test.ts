/**
 * `adreport status` after real incremental runs against a real `serve` on an injected clock: the run record
 * carries the run's figures and the day the service restated; freshness follows the days, not the runs.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { STATUS_DOCUMENT } from "../../../src/engine/status/document";
import { at, DAY, newService } from "../../helpers/incremental";

const CRON = ["report", "--dims", "campaign,date", "-o", "out/{date}.csv", "--incremental"];

describe("status after real incremental runs", () => {
  it("fresh after a run, restated day seen, lagging and stalled days later: exit 0, then 8", async () => {
    const { dir, run, restate, anHourOf } = await newService();
    mkdirSync(join(dir, "out"));
    const first = await run([...CRON, "--start", "2026-10-20", "--summary", "json"], at("2026-11-02"));
    expect(first.code, first.stderr).toBe(0);
    const summary = JSON.parse(first.stderr.trim().split("\n").at(-1) as string);

    const fresh = await run(["status", "--max-lag", "1d", "--format", "json"], at("2026-11-02"));
    expect(fresh.code, fresh.stderr).toBe(0);
    const document = STATUS_DOCUMENT.parse(JSON.parse(fresh.stdout));
    expect(document.alert).toBe(false);
    const [job] = document.jobs;
    expect(job).toMatchObject({
      job: summary.job,
      newest_day: "2026-11-01",
      newest_lag_days: 0,
      yesterday: "2026-11-01",
      time_zone: "UTC",
      settled_through: "2026-10-29",
      settled_by: "lookback",
      horizon_days: 3,
      target: join(dir, "out", "{date}.csv"),
      lock: null,
      alerts: [],
      max_lag_days: 1,
    });
    expect(job?.last_run).toMatchObject({
      outcome: "ok",
      from: "2026-10-20",
      to: "2026-11-01",
      rows: summary.rows,
      requests: summary.requests,
      days_written: 13,
      error: null,
    });
    expect(job?.last_run?.duration_ms).toBeGreaterThanOrEqual(0);

    // The service restates a day two days back: the next run finds it, and the horizon is what was seen.
    await restate(anHourOf("2026-10-31"));
    const second = await run([...CRON], at("2026-11-03"));
    expect(second.code, second.stderr).toBe(0);
    const seen = STATUS_DOCUMENT.parse(
      JSON.parse((await run(["status", summary.job, "--format", "json"], at("2026-11-03"))).stdout),
    );
    expect(seen.jobs[0]).toMatchObject({
      newest_day: "2026-11-02",
      restated: [{ day: "2026-10-31", lag_days: 2 }],
      settled_by: "restatements",
      horizon_days: 3,
      settled_through: "2026-10-30",
      runs_recorded: 2,
    });
    const human = await run(["status", summary.job], at("2026-11-03"));
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^job [0-9a-f]{8}: ok$/m);
    expect(human.stdout).toMatch(/^ {2}restated +2026-10-31 \(2 days back, /m);

    // Four days later without a run: the days have not moved; the clock has.
    const later = new Date(at("2026-11-03").getTime() + 4 * DAY);
    const lagging = await run(["status", "--max-lag", "2d"], later);
    expect(lagging.code, lagging.stdout).toBe(8);
    expect(lagging.stdout).toMatch(new RegExp(`^${summary.job}\\tlagging,stalled\\t2026-11-02\\t4d\\t`, "m"));
    expect(lagging.stderr).toBe(
      `adreport: 1 of 1 job needs a look: ${summary.job} (lagging, stalled)\nhint: adreport status ${summary.job} shows why\n`,
    );
    // A run that re-fetches the lookback every day but whose newest day does not move is not fresh.
    expect((await run(["status", "--max-lag", "5d"], later)).code).toBe(0);
  });

  it("a SQLite job whose metrics grow: the schema change is in its status, under the same job id", async () => {
    const { dir, run } = await newService();
    const job = ["report", "--incremental", "--dims", "campaign,date", "-o", "sqlite:ads.db", "--summary", "json"];
    const first = await run([...job, "--metrics", "views,clicks", "--start", "2026-10-28"], at("2026-11-02"));
    expect(first.code, first.stderr).toBe(0);
    const id = JSON.parse(first.stderr.trim().split("\n").at(-1) as string).job;
    const grown = await run([...job, "--metrics", "views,clicks,conversions"], at("2026-11-03"));
    expect(grown.code, grown.stderr).toBe(0);
    const result = await run(["status", id, "--format", "json", "--max-lag", "0d"], at("2026-11-03"));
    expect(result.code, result.stderr).toBe(0);
    const [status] = STATUS_DOCUMENT.parse(JSON.parse(result.stdout)).jobs;
    expect(status).toMatchObject({
      job: id,
      newest_day: "2026-11-02",
      target: expect.stringContaining(join(dir, "ads.db")),
      schema_changes: [
        { at: at("2026-11-03").toISOString(), change: "metrics views,clicks -> views,clicks,conversions" },
      ],
      runs_recorded: 2,
    });
  });
});
