/**
 * `adreport status` for people: one line per job (as `gh run list`), or one job's summary (as `gh run view`).
 * Every text that came from a file goes through printable(): a state edited by hand draws nothing on a terminal.
 */
import { formatWait } from "../../core/duration";
import { printable } from "../../core/printable";
import type { JobStatus, LastRunStatus, NotStartedStatus } from "./document";

const days = (n: number) => `${n} day${n === 1 ? "" : "s"}`;
const count = (n: number) => n.toLocaleString("en-US");
/** An instant to the second, as people read it in a log: `2026-11-02 06:15:03Z`. */
const when = (iso: string) => iso.replace("T", " ").replace(/\.\d+Z$/, "Z");

const lastRuns = (n: number) => (n === 1 ? "the last run" : `the last ${n} runs`);
/** `0.4 s`, `12.0 s`, then as a wait is said (`12 min`). */
const tookText = (ms: number) => (ms < 120_000 ? `${(ms / 1000).toFixed(1)} s` : formatWait(ms));

/** ok, running, or the alerts' kinds. */
function verdict(job: JobStatus): string {
  if (job.alerts.length > 0) return job.alerts.map((a) => a.kind).join(",");
  return job.lock?.live === true ? "running" : "ok";
}

/** A job not started: its alerts' kinds, else that it has no day yet. */
function notStartedVerdict(job: NotStartedStatus): string {
  return job.alerts.length > 0 ? job.alerts.map((a) => a.kind).join(",") : "no day yet";
}

export function statusLines(jobs: readonly JobStatus[], notStarted: readonly NotStartedStatus[] = []): string {
  const lines = [["JOB", "STATUS", "NEWEST DAY", "LAG", "SETTLED", "LAST RUN", "OUTCOME", "OUTPUT"].join("\t")];
  for (const job of jobs) {
    lines.push(
      [
        job.job,
        verdict(job),
        job.newest_day,
        `${job.newest_lag_days}d`,
        job.settled_through ?? "-",
        job.last_run === null ? "-" : when(job.last_run.at),
        job.last_run?.outcome ?? "-",
        printable(job.target),
      ].join("\t"),
    );
  }
  for (const job of notStarted) {
    const run = job.last_run;
    lines.push([job.job, notStartedVerdict(job), "-", "-", "-", when(run.at), run.outcome, "-"].join("\t"));
  }
  return `${lines.join("\n")}\n`;
}

function lastRunText(run: LastRunStatus | null): string {
  if (run === null) return "none recorded";
  const parts = [`${when(run.at)}, ${run.outcome}`];
  if (run.from !== null && run.to !== null) parts.push(run.from === run.to ? run.from : `${run.from} to ${run.to}`);
  if (run.rows !== null) parts.push(`${count(run.rows)} row${run.rows === 1 ? "" : "s"}`);
  if (run.requests !== null) parts.push(`${count(run.requests)} request${run.requests === 1 ? "" : "s"}`);
  if (run.duration_ms !== null) parts.push(`took ${tookText(run.duration_ms)}`);
  if (run.days_written !== null) {
    parts.push(
      `${days(run.days_written)} written (${run.days_changed ?? 0} changed), ${run.days_unchanged ?? 0} unchanged`,
    );
  }
  return parts.join(", ");
}

function lockText(job: JobStatus): string {
  const lock = job.lock;
  if (lock === null) return "free";
  const pid = lock.pid === null ? "a run starting" : `pid ${lock.pid}`;
  if (lock.host !== null) return `held by ${pid} on ${printable(lock.host)} (another host: not checked from here)`;
  if (lock.live === false) return `left by ${pid}, which no longer runs (the next run takes it over)`;
  return `held by ${pid} (a run is under way)`;
}

/** What the settled day comes from, in words. */
function settledBasis(job: JobStatus): string {
  if (job.settled_by === "learned") {
    return `--lookback auto learned the service restates days up to ${days(job.horizon_days - 1)} back`;
  }
  if (job.settled_by === "restatements") return `the service restated days up to ${days(job.horizon_days - 1)} back`;
  if (job.horizon_days === 0) return "--lookback 0d fetches no day again: a restatement is never seen";
  if (job.restated.length > 0) {
    return `no restatement seen by a run yet (only by verify --repair, which says not how far back): the lookback, ${days(job.horizon_days)}`;
  }
  return `no restatement seen yet: the lookback, ${days(job.horizon_days)}`;
}

/** One job's summary, a field a line. */
export function statusSummary(job: JobStatus): string {
  const rows: Array<[string, string]> = [
    ["output", printable(job.target)],
    ["account", job.profile === null ? "none (the environment's key)" : printable(job.profile)],
    ["state", printable(job.state_file)],
    ["last run", lastRunText(job.last_run)],
    ...(job.last_run?.error == null ? [] : ([["error", printable(job.last_run.error)]] as Array<[string, string]>)),
    [
      "newest day",
      job.newest_lag_days >= 0
        ? `${job.newest_day} (${days(job.newest_lag_days)} behind yesterday, ${job.yesterday} ${job.time_zone})`
        : // Exported where the clock was ahead of this host's: a day not over yet, fetched in part.
          `${job.newest_day} (${days(-job.newest_lag_days)} after yesterday, ${job.yesterday} ${job.time_zone}: a day not over yet when exported)`,
    ],
    [
      "with rows",
      job.newest_day_with_rows === null
        ? "none: every day came back empty"
        : job.newest_day_with_rows === job.newest_day
          ? `${job.newest_day} (the newest day too)`
          : `${job.newest_day_with_rows} (${days(job.rows_lag_days ?? 0)} behind yesterday: the days after it came back empty)`,
    ],
    [
      "settled through",
      `${job.settled_through ?? "none yet"}${job.settled_lag_days === null || job.settled_lag_days < 0 ? "" : ` (${days(job.settled_lag_days)} behind yesterday)`}; ${settledBasis(job)}`,
    ],
    [
      "restated",
      job.restated.length === 0
        ? job.runs_recorded === 0
          ? "none: no run recorded"
          : `none in ${lastRuns(job.runs_recorded)}`
        : job.restated
            .map(
              (r) => `${r.day} (${r.repair ? "by verify --repair" : `${days(r.lag_days)} back`}, ${when(r.found_at)})`,
            )
            .join(", "),
    ],
    [
      "schema changes",
      job.schema_changes.length === 0
        ? "none"
        : job.schema_changes.map((c) => `${printable(c.change)} (${when(c.at)})`).join("; "),
    ],
    [
      "quota waits",
      job.quota_waits.waits === 0
        ? "none"
        : `${job.quota_waits.waits} in ${lastRuns(job.runs_recorded)}, ${formatWait(job.quota_waits.waited_ms)} in all`,
    ],
    ["lock", lockText(job)],
  ];
  if (job.max_lag_days !== null) rows.push(["max lag", days(job.max_lag_days)]);
  for (const alert of job.alerts) rows.push(["ALERT", printable(alert.text)]);
  const width = Math.max(...rows.map(([name]) => name.length));
  return `job ${job.job}: ${verdict(job)}\n${rows.map(([name, text]) => `  ${name.padEnd(width)}  ${text}`).join("\n")}\n`;
}

/** The summary of a job whose first run exported no day: its last run and, failed, its error. */
export function notStartedSummary(job: NotStartedStatus): string {
  const run = job.last_run;
  const rows: Array<[string, string]> = [["last run", lastRunText(run)]];
  if (run.error !== null) rows.push(["error", printable(run.error)]);
  if (job.max_lag_days !== null) rows.push(["max lag", days(job.max_lag_days)]);
  for (const alert of job.alerts) rows.push(["ALERT", printable(alert.text)]);
  const width = Math.max(...rows.map(([name]) => name.length));
  const lines = rows.map(([name, text]) => `  ${name.padEnd(width)}  ${text}`);
  return `job ${printable(job.job)}: ${run.outcome}, no day exported yet\n${lines.join("\n")}\n`;
}
