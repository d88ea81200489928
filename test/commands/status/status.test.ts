/**
 * `adreport status` and `state show` against state files and run records written by hand, on an injected
 * clock: fresh, lagging, stalled, restated, failed, locked by a live and by a dead holder; exit 0, 8 and 2;
 * the JSON document read back through its one schema.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { STATUS_DOCUMENT } from "../../../src/engine/status/document";
import { configDirWith } from "../../helpers/config";
import { runInProcess } from "../../helpers/run-cli-in-process";

const NOW = new Date("2026-11-10T08:00:00Z"); // yesterday: 2026-11-09 (UTC)

interface Job {
  id: string;
  lastDay: string;
  profile?: string | null;
  days?: string[];
  /** The days from this one on came back empty (0 rows). */
  emptyFrom?: string;
  run?: object | undefined;
  lock?: string;
}

function dayList(from: string, to: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
    days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}

/** A config folder with the jobs' state files (as a run writes them), run records and locks. */
function folderWith(
  jobs: Job[],
  settings: Record<string, unknown> = {},
  profiles: Record<string, Record<string, unknown>> = {},
) {
  const config = configDirWith(settings, profiles);
  const state = join(config, "state");
  mkdirSync(state, { mode: 0o700 });
  for (const job of jobs) {
    const days = Object.fromEntries(
      (job.days ?? dayList("2026-11-01", job.lastDay)).map((day) => {
        const empty = job.emptyFrom !== undefined && day >= job.emptyFrom;
        const [rows, clicks] = empty ? [0, 0] : [2, 10];
        return [
          day,
          { rows, sums: { clicks }, run: "20261102T060000Z-abcdef", requests: 1, at: `${day}T23:00:00.000Z` },
        ];
      }),
    );
    const document = {
      version: 1,
      id: job.id,
      job: {
        profile: job.profile ?? null,
        baseUrl: "http://127.0.0.1:8080",
        dimensions: ["campaign", "date"],
        metrics: ["clicks"],
        granularity: "day",
        campaignId: null,
        adId: null,
        target: { kind: "files", template: `/data/${job.id}/{date}.csv` },
      },
      lastDay: job.lastDay,
      days,
    };
    writeFileSync(join(state, `${job.id}.json`), JSON.stringify(document), { mode: 0o600 });
    if (job.run !== undefined)
      writeFileSync(join(state, `${job.id}.run.json`), JSON.stringify(job.run), { mode: 0o600 });
    if (job.lock !== undefined) writeFileSync(join(state, `${job.id}.lock`), job.lock, { mode: 0o600 });
  }
  return config;
}

const okRun = (at: string, to: string, extra: object = {}) => ({
  at,
  outcome: "ok",
  from: "2026-11-01",
  to,
  run: "20261109T060000Z-abcdef",
  started: new Date(Date.parse(at) - 4200).toISOString(),
  rows: 120,
  requests: 3,
  daysWritten: 1,
  daysChanged: 0,
  daysUnchanged: 3,
  restated: [],
  schemaChanges: [],
  lookbackDays: 3,
  waits: 0,
  waitedMs: 0,
  ...extra,
});

const FRESH: Job = { id: "aaaa0001", lastDay: "2026-11-09", run: okRun("2026-11-10T06:00:04Z", "2026-11-09") };
const LAGGING: Job = {
  id: "aaaa0002",
  lastDay: "2026-11-05",
  // It runs every day and fetches its lookback again, but its newest day has not moved since the 5th.
  run: okRun("2026-11-10T06:00:04Z", "2026-11-05", {
    earlier: [okRun("2026-11-09T06:00:04Z", "2026-11-05"), okRun("2026-11-08T06:00:04Z", "2026-11-05")],
  }),
};
const STALLED: Job = { id: "aaaa0003", lastDay: "2026-11-09", run: okRun("2026-11-07T06:00:04Z", "2026-11-09") };
const RESTATED: Job = {
  id: "aaaa0004",
  lastDay: "2026-11-09",
  run: okRun("2026-11-10T06:00:04Z", "2026-11-09", {
    restated: ["2026-11-08"],
    waits: 2,
    waitedMs: 90_000,
    earlier: [
      okRun("2026-11-09T06:00:04Z", "2026-11-08", {
        restated: ["2026-11-03", "2026-11-07"],
        schemaChanges: ["metrics clicks -> clicks,spending"],
        waits: 1,
        waitedMs: 30_000,
      }),
      // verify --repair fetched old days again and found one restated: listed, no measure of the horizon.
      okRun("2026-11-08T12:00:00Z", "2026-11-09", { repair: true, from: "2026-11-01", restated: ["2026-11-01"] }),
    ],
  }),
};
const FAILED: Job = {
  id: "aaaa0005",
  lastDay: "2026-11-09",
  run: {
    at: "2026-11-10T06:01:00Z",
    outcome: "failed",
    message: "the service did not answer: connection refused\nsecond line",
    started: "2026-11-10T06:00:00Z",
    rows: 0,
    requests: 5,
    earlier: [okRun("2026-11-09T06:00:04Z", "2026-11-08")],
  },
};
const LIVE_LOCK: Job = { ...FRESH, id: "aaaa0006", lock: `${process.pid}\n` };
const DEAD_LOCK: Job = { ...FRESH, id: "aaaa0007", lock: "999999999\n" };

const status = (config: string, args: string[], options: { outIsTTY?: boolean } = {}) =>
  runInProcess(["status", ...args], { env: { ADREPORT_CONFIG_DIR: config }, now: NOW, ...options });

/** The control characters of `text` other than a tab and a line break (those a terminal would act on). */
const controlsIn = (text: string) => [...text].filter((c) => c.charCodeAt(0) < 0x20 && c !== "\t" && c !== "\n");

const documentOf = (stdout: string) => STATUS_DOCUMENT.parse(JSON.parse(stdout));

describe("adreport status against hand-made ledgers", () => {
  it("a fresh job: exit 0 with --max-lag 0d, its summary and its document", async () => {
    const config = folderWith([FRESH]);
    const json = await status(config, [FRESH.id, "--max-lag", "0d", "--format", "json"]);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stderr).toBe("");
    const document = documentOf(json.stdout);
    expect(document).toMatchObject({ now: NOW.toISOString(), alert: false, unreadable: [] });
    expect(document.jobs[0]).toEqual({
      job: FRESH.id,
      target: `/data/${FRESH.id}/{date}.csv`,
      profile: null,
      state_file: join(config, "state", `${FRESH.id}.json`),
      time_zone: "UTC",
      yesterday: "2026-11-09",
      newest_day: "2026-11-09",
      newest_lag_days: 0,
      newest_day_with_rows: "2026-11-09",
      rows_lag_days: 0,
      settled_through: "2026-11-06",
      settled_lag_days: 3,
      settled_by: "lookback",
      horizon_days: 3,
      last_run: {
        at: "2026-11-10T06:00:04Z",
        started: "2026-11-10T05:59:59.800Z",
        outcome: "ok",
        from: "2026-11-01",
        to: "2026-11-09",
        rows: 120,
        requests: 3,
        duration_ms: 4200,
        days_written: 1,
        days_changed: 0,
        days_unchanged: 3,
        error: null,
      },
      runs_recorded: 1,
      restated: [],
      schema_changes: [],
      quota_waits: { waits: 0, waited_ms: 0 },
      lock: null,
      max_lag_days: 0,
      alerts: [],
    });
    const human = await status(config, [FRESH.id]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain(`job ${FRESH.id}: ok\n`);
    expect(human.stdout).toMatch(
      /^ {2}last run +2026-11-10 06:00:04Z, ok, 2026-11-01 to 2026-11-09, 120 rows, 3 requests, took 4\.2 s, 1 day written \(0 changed\), 3 unchanged$/m,
    );
    expect(human.stdout).toMatch(/^ {2}newest day +2026-11-09 \(0 days behind yesterday, 2026-11-09 UTC\)$/m);
    expect(human.stdout).toMatch(
      /^ {2}settled through +2026-11-06 \(3 days behind yesterday\); no restatement seen yet: the lookback, 3 days$/m,
    );
  });

  it("lagging: re-fetched every day, its newest day still behind: exit 8, named on stderr", async () => {
    const config = folderWith([FRESH, LAGGING]);
    const result = await status(config, ["--max-lag", "2d"]);
    expect(result.code).toBe(8);
    expect(result.stdout.split("\n")[0]).toBe("JOB\tSTATUS\tNEWEST DAY\tLAG\tSETTLED\tLAST RUN\tOUTCOME\tOUTPUT");
    expect(result.stdout).toContain(`${FRESH.id}\tok\t2026-11-09\t0d\t2026-11-06\t2026-11-10 06:00:04Z\tok\t`);
    expect(result.stdout).toContain(`${LAGGING.id}\tlagging\t2026-11-05\t4d\t`);
    expect(result.stderr).toBe(
      `adreport: 1 of 2 jobs need a look: ${LAGGING.id} (lagging)\nhint: adreport status ${LAGGING.id} shows why\n`,
    );
    // Within a wider lag: exit 0; without any lag asked for: a report, never an alert.
    expect((await status(config, ["--max-lag", "4d"])).code).toBe(0);
    expect((await status(config, [])).code).toBe(0);
    const document = documentOf((await status(config, [LAGGING.id, "--max-lag", "2d", "--format", "json"])).stdout);
    expect(document.alert).toBe(true);
    expect(document.jobs[0]?.alerts).toEqual([
      { kind: "lagging", text: "its newest day 2026-11-05 is 4 days behind yesterday (2026-11-09); 2 allowed" },
    ]);
    expect(document.jobs[0]?.runs_recorded).toBe(3);
  });

  it("empty days: the newest day with rows is said beside the newest day, from the dates in the data", async () => {
    // The service answered the last four days with no row (its data late, or the account's pipeline stopped).
    const empty: Job = { ...FRESH, id: "aaaa0081", emptyFrom: "2026-11-06" };
    const config = folderWith([empty]);
    const [job] = documentOf((await status(config, [empty.id, "--format", "json"])).stdout).jobs;
    expect(job).toMatchObject({ newest_day: "2026-11-09", newest_day_with_rows: "2026-11-05", rows_lag_days: 4 });
    const human = await status(config, [empty.id]);
    expect(human.stdout).toMatch(
      /^ {2}with rows +2026-11-05 \(4 days behind yesterday: the days after it came back empty\)$/m,
    );
    const none = folderWith([{ ...FRESH, id: "aaaa0082", emptyFrom: "2026-11-01" }]);
    const [nothing] = documentOf((await status(none, ["aaaa0082", "--format", "json"])).stdout).jobs;
    expect(nothing).toMatchObject({ newest_day_with_rows: null, rows_lag_days: null });
    expect((await status(none, ["aaaa0082"])).stdout).toMatch(/^ {2}with rows +none: every day came back empty$/m);
  });

  it("the alert below the status on a terminal, above it into a pipe (whose reader may go away)", async () => {
    const config = folderWith([LAGGING]);
    const terminal = await runInProcess(["status", "--max-lag", "1d"], {
      env: { ADREPORT_CONFIG_DIR: config },
      now: NOW,
      outIsTTY: true,
    });
    expect(terminal.code).toBe(8);
    expect(terminal.stderr).toBe(
      `adreport: 1 of 1 job needs a look: ${LAGGING.id} (lagging)\nhint: adreport status ${LAGGING.id} shows why\n`,
    );
  });

  it("an agency's many lagging jobs: the alert names the first 20 and counts the rest, one short line", async () => {
    const many = Array.from({ length: 25 }, (_, i) => ({ ...LAGGING, id: `eeee00${String(i).padStart(2, "0")}` }));
    const result = await status(folderWith(many), ["--max-lag", "1d"]);
    expect(result.code).toBe(8);
    const [line] = result.stderr.split("\n");
    expect(line).toMatch(
      /^adreport: 25 of 25 jobs need a look: eeee0000 \(lagging\), .*, eeee0019 \(lagging\) and 5 more$/,
    );
    expect(line).not.toContain("eeee0020");
  });

  it("stalled: not run for longer than the lag allows, though its newest day is yesterday", async () => {
    const config = folderWith([STALLED]);
    const result = await status(config, [STALLED.id, "--max-lag", "1d", "--format", "json"]);
    expect(result.code).toBe(8);
    expect(documentOf(result.stdout).jobs[0]?.alerts).toEqual([
      { kind: "stalled", text: "it has not run since 2026-11-07T06:00:04Z, more than 2 days ago" },
    ]);
    expect(result.stderr).toBe(`adreport: 1 of 1 job needs a look: ${STALLED.id} (stalled)\n`);
    expect((await status(config, [STALLED.id, "--max-lag", "3d"])).code).toBe(0);
  });

  it("restated: the days found restated set the horizon; schema changes and quota waits of recent runs", async () => {
    const config = folderWith([RESTATED]);
    const result = await status(config, [RESTATED.id, "--format", "json"]);
    expect(result.code, result.stderr).toBe(0);
    const [job] = documentOf(result.stdout).jobs;
    expect(job).toMatchObject({
      restated: [
        { day: "2026-11-08", found_at: "2026-11-10T06:00:04Z", lag_days: 1, repair: false },
        { day: "2026-11-07", found_at: "2026-11-09T06:00:04Z", lag_days: 1, repair: false },
        { day: "2026-11-03", found_at: "2026-11-09T06:00:04Z", lag_days: 5, repair: false },
        { day: "2026-11-01", found_at: "2026-11-08T12:00:00Z", lag_days: 8, repair: true },
      ],
      // Restated up to 5 days back: the newest 6 days may still change, whatever the lookback (3d).
      settled_by: "restatements",
      horizon_days: 6,
      settled_through: "2026-11-03",
      schema_changes: [{ at: "2026-11-09T06:00:04Z", change: "metrics clicks -> clicks,spending" }],
      quota_waits: { waits: 3, waited_ms: 120_000 },
    });
    const human = await status(config, [RESTATED.id]);
    expect(human.stdout).toMatch(/^ {2}restated +2026-11-08 \(1 day back, 2026-11-10 06:00:04Z\), 2026-11-07 /m);
    expect(human.stdout).toMatch(/, 2026-11-01 \(by verify --repair, 2026-11-08 12:00:00Z\)$/m);
    expect(human.stdout).toMatch(/^ {2}schema changes +metrics clicks -> clicks,spending \(2026-11-09 06:00:04Z\)$/m);
    expect(human.stdout).toMatch(/^ {2}quota waits +3 in the last 3 runs, 120 s in all$/m);
  });

  it("a newest day after yesterday (exported by a host whose clock is ahead): said so, not '-1 days behind'", async () => {
    const ahead: Job = { id: "aaaa0071", lastDay: "2026-11-10", run: okRun("2026-11-10T06:00:04Z", "2026-11-10") };
    const result = await status(folderWith([ahead]), [ahead.id, "--max-lag", "0d"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /^ {2}newest day +2026-11-10 \(1 day after yesterday, 2026-11-09 UTC: a day not over yet when exported\)$/m,
    );
  });

  it("--lookback 0d: no day is fetched again, so no restatement can be seen; said so, not 'none seen yet'", async () => {
    const never: Job = {
      id: "aaaa0091",
      lastDay: "2026-11-09",
      run: okRun("2026-11-10T06:00:04Z", "2026-11-09", { lookbackDays: 0 }),
    };
    const result = await status(folderWith([never]), [never.id]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /^ {2}settled through +2026-11-09 \(0 days behind yesterday\); --lookback 0d fetches no day again: a restatement is never seen$/m,
    );
  });

  it("restated days found by verify --repair only: listed, and the lookback is not said to have seen none", async () => {
    const repaired: Job = {
      id: "aaaa0061",
      lastDay: "2026-11-09",
      run: okRun("2026-11-10T06:00:04Z", "2026-11-09", {
        earlier: [okRun("2026-11-08T12:00:00Z", "2026-11-02", { repair: true, restated: ["2026-11-02"] })],
      }),
    };
    const result = await status(folderWith([repaired]), [repaired.id]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^ {2}restated +2026-11-02 \(by verify --repair, 2026-11-08 12:00:00Z\)$/m);
    expect(result.stdout).toMatch(
      /^ {2}settled through +2026-11-06 \(3 days behind yesterday\); no restatement seen by a run yet \(only by verify --repair, which says not how far back\): the lookback, 3 days$/m,
    );
  });

  it("failed: its last run's error, one line; exit 8 whenever a lag is asked for", async () => {
    const config = folderWith([FAILED]);
    const result = await status(config, [FAILED.id, "--max-lag", "5d"]);
    expect(result.code).toBe(8);
    expect(result.stdout).toContain("job aaaa0005: failed\n");
    expect(result.stdout).toMatch(/^ {2}error +the service did not answer: connection refused$/m);
    expect(result.stdout).not.toContain("second line");
    const [job] = documentOf((await status(config, [FAILED.id, "--format", "json"])).stdout).jobs;
    expect(job?.last_run).toMatchObject({ outcome: "failed", duration_ms: 60_000, requests: 5, from: null });
    expect(job?.last_run?.error).toBe("the service did not answer: connection refused");
    expect(job?.alerts).toEqual([]);
  });

  it("locked by a live holder (a run under way) and by a dead one (taken over by the next run)", async () => {
    const config = folderWith([LIVE_LOCK, DEAD_LOCK]);
    const list = await status(config, ["--max-lag", "1d"]);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain(`${LIVE_LOCK.id}\trunning\t`);
    expect(list.stdout).toContain(`${DEAD_LOCK.id}\tok\t`);
    const live = documentOf((await status(config, [LIVE_LOCK.id, "--format", "json"])).stdout).jobs[0];
    expect(live?.lock).toEqual({ pid: process.pid, host: null, live: true });
    const dead = await status(config, [DEAD_LOCK.id]);
    expect(dead.stdout).toMatch(
      /^ {2}lock +left by pid 999999999, which no longer runs \(the next run takes it over\)$/m,
    );
    expect((await status(config, [LIVE_LOCK.id])).stdout).toMatch(
      /^ {2}lock +held by pid \d+ \(a run is under way\)$/m,
    );
    const other = folderWith([{ ...FRESH, lock: "4242\nbuild-host-2\n" }]);
    const elsewhere = documentOf((await status(other, [FRESH.id, "--format", "json"])).stdout).jobs[0];
    expect(elsewhere?.lock).toEqual({ pid: 4242, host: "build-host-2", live: null });
  });

  it("a job with no run recorded (killed with SIGKILL in its first run, or an earlier adreport's record lost)", async () => {
    const config = folderWith([{ ...DEAD_LOCK, id: "aaaa0041", run: undefined }]);
    const result = await status(config, ["aaaa0041"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^ {2}last run +none recorded$/m);
    expect(result.stdout).toMatch(/^ {2}restated +none: no run recorded$/m);
  });

  it("max-lag from the job's profile, else the config file; the flag over both", async () => {
    const config = folderWith(
      [LAGGING, { ...LAGGING, id: "aaaa0012", profile: "acme" }],
      { "max-lag": "10d" },
      { acme: { "max-lag": "1d" } },
    );
    const result = await status(config, ["--format", "json"]);
    expect(result.code).toBe(8);
    const document = documentOf(result.stdout);
    expect(document.jobs.map((job) => [job.job, job.max_lag_days, job.alerts.length])).toEqual([
      [LAGGING.id, 10, 0],
      ["aaaa0012", 1, 1],
    ]);
    expect(result.stderr).toBe(
      "adreport: 1 of 2 jobs need a look: aaaa0012 (lagging)\nhint: adreport status aaaa0012 shows why\n",
    );
    expect((await status(config, ["--max-lag", "30d"])).code).toBe(0);
    const bad = folderWith([LAGGING], { "max-lag": "soon" });
    const refused = await status(bad, []);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^adreport: .*config\.json: max-lag: expected a number of days such as 2d/);
  });

  it("refuses an unknown job, a job id that is none, a bad --max-lag: exit 2", async () => {
    const config = folderWith([FRESH]);
    const unknown = await status(config, ["deadbeef"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe("adreport: no job deadbeef\nhint: adreport state list shows the jobs\n");
    expect((await status(config, ["nope"])).code).toBe(2);
    const lag = await status(config, ["--max-lag", "2 weeks"]);
    expect(lag.code).toBe(2);
    expect(lag.stderr).toMatch(/^adreport: --max-lag: "2 weeks": expected a number of days such as 2d/);
    expect(lag.stdout).toBe("");
  });

  it("no job at all, or one that cannot be read: an alert when a lag is asked for, else a note", async () => {
    const empty = folderWith([]);
    const none = await status(empty, []);
    expect(none.code).toBe(0);
    expect(none.stderr).toMatch(/no incremental jobs yet/);
    const watched = await status(empty, ["--max-lag", "1d", "--format", "json"]);
    expect(watched.code).toBe(8);
    expect(documentOf(watched.stdout)).toMatchObject({ alert: true, jobs: [] });
    // Where it looked: a cron line whose HOME or ADREPORT_CONFIG_DIR differs from the shell's finds it here.
    expect(watched.stderr).toBe(`adreport: no job to check in ${join(empty, "state")}\n`);
    const config = folderWith([FRESH]);
    writeFileSync(join(config, "state", "bbbb0001.json"), '{"version":1,', { mode: 0o600 });
    const broken = await status(config, ["--max-lag", "1d"]);
    expect(broken.code).toBe(8);
    expect(broken.stderr).toMatch(/^adreport: warning: cannot read the state file .*bbbb0001\.json/m);
    expect(broken.stderr).toMatch(/^adreport: 1 of 2 jobs need a look: 1 that cannot be read$/m);
    writeFileSync(join(config, "state", "bbbb0002.json"), "", { mode: 0o600 });
    const two = await status(config, ["--max-lag", "1d"]);
    expect(two.stderr).toMatch(/^adreport: 2 of 3 jobs need a look: 2 that cannot be read$/m);
  });

  it("a state or run record edited by hand draws nothing on a terminal", async () => {
    const config = folderWith([
      { ...FAILED, id: "aaaa0020", run: { ...(FAILED.run as object), message: "bad \u001b[31mred\u0007" } },
    ]);
    const result = await status(config, ["aaaa0020"]);
    expect(result.stdout).not.toContain("\u001b");
    expect(result.stdout).not.toContain("\u0007");
    expect(result.stdout).toMatch(/^ {2}error +bad \\x1b\[31mred\\x07$/m);
    // Date.parse takes much that is no ISO instant (words in parentheses, a line break, an escape): a record
    // edited by hand must not break the line a job, nor draw on a terminal.
    const loose = folderWith([
      { ...FRESH, id: "aaaa0021", run: okRun("Nov 09 2026 (\u001b[31mred\nFAKE\tok)", "2026-11-09") },
      { ...FRESH, id: "aaaa0022", run: okRun("2026-11-10T06:00:04Z", "2026-11-09", { started: "Nov 10 2026 (\n)" }) },
      { ...FRESH, id: "aaaa0023", run: okRun("2026-11-10T07:00:04+01:00", "2026-11-09") },
    ]);
    const lines = await status(loose, []);
    expect(controlsIn(lines.stdout)).toEqual([]);
    expect(lines.stdout.trimEnd().split("\n")).toHaveLength(4);
    expect(lines.stdout).toContain("aaaa0021\tok\t2026-11-09\t0d\t2026-11-06\t-\t-\t");
    const offsets = documentOf((await status(loose, ["--format", "json"])).stdout).jobs;
    expect(offsets.map((job) => [job.last_run?.at ?? null, job.last_run?.started ?? null])).toEqual([
      [null, null],
      ["2026-11-10T06:00:04Z", null],
      ["2026-11-10T06:00:04.000Z", "2026-11-10T05:59:59.800Z"],
    ]);
    const junk = folderWith([{ ...FRESH, run: { at: "yesterday", outcome: "maybe", earlier: 5 } }]);
    const read = documentOf((await status(junk, [FRESH.id, "--format", "json"])).stdout).jobs[0];
    expect(read).toMatchObject({ last_run: null, runs_recorded: 0 });
  });
});

describe("a job whose first run failed", () => {
  it("has a run record and no state: listed and an alert, never left out of a green status", async () => {
    const config = folderWith([FRESH]);
    // A key refused on the job's first run: its record is written, no day and so no state.
    const refused = {
      at: "2026-11-10T06:00:02.000Z",
      outcome: "failed",
      message: "the service refused the key (401): the API key is not valid\nmore",
      started: "2026-11-10T06:00:01.000Z",
      rows: 0,
      requests: 1,
    };
    writeFileSync(join(config, "state", "cccc0001.run.json"), JSON.stringify(refused), { mode: 0o600 });
    const watched = await status(config, ["--max-lag", "2d"]);
    expect(watched.code).toBe(8);
    expect(watched.stdout).toContain("cccc0001\tfailed\t-\t-\t-\t2026-11-10 06:00:02Z\tfailed\t-\n");
    expect(watched.stderr).toBe(
      "adreport: 1 of 2 jobs need a look: cccc0001 (failed: no day exported yet)\nhint: adreport status cccc0001 shows why\n",
    );
    const json = documentOf((await status(config, ["--format", "json"])).stdout);
    expect(json.jobs.map((job) => job.job)).toEqual([FRESH.id]);
    expect(json.not_started).toEqual([
      {
        job: "cccc0001",
        state_file: join(config, "state", "cccc0001.json"),
        last_run: expect.objectContaining({
          outcome: "failed",
          error: "the service refused the key (401): the API key is not valid",
        }),
        max_lag_days: null,
        alerts: [],
      },
    ]);
    // Without a lag asked for: listed, exit 0; named: why, exit 8 with a lag, else 0.
    const plain = await status(config, []);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain("cccc0001\tno day yet\t-\t-\t-\t2026-11-10 06:00:02Z\tfailed\t-\n");
    const named = await status(config, ["cccc0001", "--max-lag", "1d"]);
    expect(named.code).toBe(8);
    expect(named.stdout).toBe(
      [
        "job cccc0001: failed, no day exported yet",
        "  last run  2026-11-10 06:00:02Z, failed, 0 rows, 1 request, took 1.0 s",
        "  error     the service refused the key (401): the API key is not valid",
        "  max lag   1 day",
        "  ALERT     no day exported yet: its last run (2026-11-10T06:00:02.000Z) failed: the service refused the key (401): the API key is not valid",
        "",
      ].join("\n"),
    );
    expect((await status(config, ["cccc0001"])).code).toBe(0);
    // A first run with nothing to do (its --start after yesterday) is no alert, until it stops running.
    const early = folderWith([]);
    const nothing = { at: "2026-11-10T06:00:02.000Z", outcome: "nothing to do", message: "--start is after yesterday" };
    writeFileSync(join(early, "state", "cccc0002.run.json"), JSON.stringify(nothing), { mode: 0o600 });
    const waiting = await status(early, ["--max-lag", "1d"]);
    expect(waiting.code, waiting.stderr).toBe(0);
    expect(waiting.stdout).toContain("cccc0002\tno day yet\t-\t-\t-\t2026-11-10 06:00:02Z\tnothing to do\t-\n");
    const later = await runInProcess(["status", "--max-lag", "1d"], {
      env: { ADREPORT_CONFIG_DIR: early },
      now: new Date("2026-11-13T08:00:00Z"),
    });
    expect(later.code).toBe(8);
    expect(later.stderr).toMatch(/^adreport: 1 of 1 job needs a look: cccc0002 \(stalled: no day exported yet\)$/m);
    // A job of its own --state-file has no id before it has a state: named by that file.
    const file = join(config, "state", "cccc0001.json");
    const byFile = await status(config, ["--state-file", file]);
    expect(byFile.code, byFile.stderr).toBe(0);
    expect(byFile.stdout.split("\n")[0]).toBe(`job ${file}: failed, no day exported yet`);
  });
});

describe("a run record others can write", () => {
  it("is not believed: a record put there by someone else could hide a failed run", async () => {
    const config = folderWith([FRESH, { ...FAILED, id: "aaaa0051" }]);
    const record = join(config, "state", "aaaa0051.run.json");
    // Someone who may write it turns the failed run into a fresh one.
    writeFileSync(record, JSON.stringify(okRun("2026-11-10T06:00:04Z", "2026-11-09")));
    chmodSync(record, 0o666);
    const list = await status(config, ["--max-lag", "1d"]);
    expect(list.code).toBe(8);
    expect(list.stderr).toMatch(
      /^adreport: warning: the run record .*aaaa0051\.run\.json is mode 0666: others can change it$/m,
    );
    expect(list.stderr).toMatch(/^adreport: 1 of 2 jobs need a look: 1 that cannot be read$/m);
    expect(list.stdout).not.toContain("aaaa0051");
    const named = await status(config, ["aaaa0051", "--format", "json"]);
    expect(named.code).toBe(2);
    expect(named.stdout).toBe("");
    expect(named.stderr).toMatch(/\nhint: chmod go-w .*aaaa0051\.run\.json, if its content is yours\n$/);
  });
});

describe("a state whose job id is edited by hand", () => {
  it("is a state that cannot be used: named on stderr, never a line of its own on stdout", async () => {
    const config = folderWith([FRESH, { ...FRESH, id: "aaaa0031" }]);
    const file = join(config, "state", "aaaa0031.json");
    const hostile = "x\u001b]0;title\u0007\nFAKE\tok";
    writeFileSync(file, readFileSync(file, "utf8").replace('"id":"aaaa0031"', `"id":${JSON.stringify(hostile)}`));
    const list = await status(config, ["--max-lag", "1d"]);
    expect(list.code).toBe(8);
    expect(list.stdout.trimEnd().split("\n")).toHaveLength(2);
    expect(controlsIn(list.stdout + list.stderr)).toEqual([]);
    expect(list.stderr).toMatch(/^adreport: warning: the state file .*aaaa0031\.json is not in adreport's shape$/m);
    expect(list.stderr).toMatch(/^adreport: 1 of 2 jobs need a look: 1 that cannot be read$/m);
    const named = await status(config, ["aaaa0031"]);
    expect(named.code).toBe(2);
    expect(named.stdout).toBe("");
  });
});

describe("state list", () => {
  it("a run record's time edited by hand draws nothing on a terminal, as the status lines do", async () => {
    const config = folderWith([
      { ...FRESH, run: { ...okRun("2026-11-10T06:00:04Z", "2026-11-09"), at: "Nov 09 2026 (\u001b[31m\nX)" } },
    ]);
    const list = await runInProcess(["state", "list"], { env: { ADREPORT_CONFIG_DIR: config }, now: NOW });
    expect(list.code, list.stderr).toBe(0);
    expect(controlsIn(list.stdout)).toEqual([]);
    expect(list.stdout.trimEnd().split("\n")).toHaveLength(2);
  });
});

describe("state show", () => {
  it("the summary on a terminal or with --format; the whole ledger with --ledger, and in a pipe as before", async () => {
    const config = folderWith([RESTATED]);
    const show = (args: string[], outIsTTY = false) =>
      runInProcess(["state", "show", RESTATED.id, ...args], {
        env: { ADREPORT_CONFIG_DIR: config },
        now: NOW,
        outIsTTY,
      });
    const terminal = await show([], true);
    expect(terminal.code, terminal.stderr).toBe(0);
    expect(terminal.stdout).toContain(`job ${RESTATED.id}: ok\n`);
    expect(terminal.stdout).toMatch(/^ {2}settled through +2026-11-03 /m);
    expect((await show(["--format", "human"])).stdout).toBe(terminal.stdout);
    const json = await show(["--format", "json"]);
    expect(documentOf(json.stdout).jobs[0]?.job).toBe(RESTATED.id);
    for (const ledger of [await show(["--ledger"], true), await show([])]) {
      const whole = JSON.parse(ledger.stdout);
      expect(whole).toMatchObject({ id: RESTATED.id, last_day: "2026-11-09", last_run: { restated: ["2026-11-08"] } });
      expect(Object.keys(whole.days)).toHaveLength(9);
    }
    const both = await show(["--ledger", "--format", "json"]);
    expect(both.code).toBe(2);
  });
});
