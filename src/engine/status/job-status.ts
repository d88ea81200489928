/**
 * One job's status: its newest day and the newest settled one against yesterday in the job's time zone,
 * its last run, what its recent runs saw, its lock, and the alerts a --max-lag raises. Freshness comes from
 * the days in the ledger, never from when they were loaded.
 */
import { dayOfInstant, dayOfText, dayText } from "../../core/calendar";
import type { LockHolder } from "../../io/lock-file";
import { LEARNING_DAYS } from "../../state/auto-lookback";
import type { JobState, LastRun } from "../../state/store";
import { DEFAULT_LOOKBACK_DAYS } from "../plan/incremental";
import type { Alert, JobStatus, LastRunStatus, NotStartedStatus } from "./document";
import { restatedLagDays, restatementsOf } from "./restatements";
import { settledThrough } from "./settled";

/** Whole-day jobs keep the service's UTC days (a --tz other than UTC is refused with them). */
export const JOB_TIME_ZONE = "UTC";

const DAY_MS = 86_400_000;

export interface JobFacts {
  state: JobState;
  /** The job's recorded runs, newest first (recent-runs.ts). */
  runs: readonly LastRun[];
  holder: LockHolder | undefined;
  /** The state's file, or where its store keeps it, for people. */
  where: string;
  target: string;
  /** The lag allowed, in days (--max-lag, else the job profile's max-lag setting); undefined: no alert is raised. */
  maxLagDays: number | undefined;
}

function firstLine(text: string | undefined): string | null {
  if (text === undefined) return null;
  return text.split("\n", 1)[0] ?? "";
}

function lastRunOf(run: LastRun | undefined): LastRunStatus | null {
  if (run === undefined) return null;
  const duration = run.started === undefined ? null : Math.max(0, Date.parse(run.at) - Date.parse(run.started));
  return {
    at: run.at,
    started: run.started ?? null,
    outcome: run.outcome,
    from: run.from ?? null,
    to: run.to ?? null,
    rows: run.rows ?? null,
    requests: run.requests ?? null,
    duration_ms: duration,
    days_written: run.daysWritten ?? null,
    days_changed: run.daysChanged ?? null,
    days_unchanged: run.daysUnchanged ?? null,
    error: run.outcome === "failed" ? firstLine(run.message ?? "") : null,
  };
}

/** When the job last wrote anything: its last run, else (a record lost, or an earlier adreport's) its ledger. */
function lastActivity(facts: JobFacts): number | undefined {
  const run = facts.runs[0];
  if (run !== undefined) return Date.parse(run.at);
  let latest: number | undefined;
  for (const record of Object.values(facts.state.days)) {
    const t = record.at === undefined ? Number.NaN : Date.parse(record.at);
    if (!Number.isNaN(t) && (latest === undefined || t > latest)) latest = t;
  }
  return latest;
}

function alertsOf(facts: JobFacts, now: Date, lag: number): Alert[] {
  const max = facts.maxLagDays;
  if (max === undefined) return [];
  const alerts: Alert[] = [];
  const days = (n: number) => `${n} day${n === 1 ? "" : "s"}`;
  if (lag > max) {
    alerts.push({
      kind: "lagging",
      text: `its newest day ${facts.state.lastDay} is ${days(lag)} behind yesterday (${dayText(dayOfInstant(now) - 1)}); ${max} allowed`,
    });
  }
  const last = facts.runs[0];
  if (last?.outcome === "failed") {
    alerts.push({ kind: "failed", text: `its last run (${last.at}) failed: ${firstLine(last.message ?? "") ?? ""}` });
  }
  // The lag allows max days behind yesterday: a job that has not run for max + 1 days cannot be within it.
  const active = lastActivity(facts);
  if (active === undefined || now.getTime() - active > (max + 1) * DAY_MS) {
    alerts.push({
      kind: "stalled",
      text:
        active === undefined
          ? "no run of it is recorded"
          : `it has not run since ${new Date(active).toISOString().replace(/\.\d+Z$/, "Z")}, more than ${days(max + 1)} ago`,
    });
  }
  return alerts;
}

/**
 * A job whose runs exported no day yet (its record, no state): with a lag asked for, an alert when its last
 * run failed, or when it has not run since the lag allows; a run with nothing to do (its --start after
 * yesterday) is none. `runs` is not empty (read.ts).
 */
export function notStartedStatus(
  job: { id: string; runs: readonly LastRun[]; where: string },
  maxLagDays: number | undefined,
  now: Date,
): NotStartedStatus {
  const last = lastRunOf(job.runs[0]) as LastRunStatus;
  const alerts: Alert[] = [];
  if (maxLagDays !== undefined) {
    if (last.outcome === "failed") {
      alerts.push({
        kind: "failed",
        text: `no day exported yet: its last run (${last.at}) failed: ${last.error ?? ""}`,
      });
    }
    if (now.getTime() - Date.parse(last.at) > (maxLagDays + 1) * DAY_MS) {
      alerts.push({ kind: "stalled", text: `no day exported yet, and it has not run since ${last.at}` });
    }
  }
  return { job: job.id, state_file: job.where, last_run: last, max_lag_days: maxLagDays ?? null, alerts };
}

export function jobStatus(facts: JobFacts, now: Date): JobStatus {
  const { state, runs, holder } = facts;
  const yesterday = dayOfInstant(now) - 1;
  const newest = dayOfText(state.lastDay) as number;
  const ledgerDays = Object.keys(state.days).sort();
  const first = ledgerDays[0] === undefined ? newest : Math.min(dayOfText(ledgerDays[0]) as number, newest);
  const restatements = restatementsOf(runs);
  // A --lookback auto job checks at least 90 days until it has learned how far back the service restates.
  const lookbackDays =
    state.autoLookback !== undefined
      ? LEARNING_DAYS
      : (runs.find((run) => run.lookbackDays !== undefined)?.lookbackDays ?? DEFAULT_LOOKBACK_DAYS);
  const settled = settledThrough(newest, first, {
    restatedLagDays: restatedLagDays(restatements),
    lookbackDays,
    learnedHorizonDays: state.autoLookback?.learnedHorizonDays,
  });
  const lag = yesterday - newest;
  // The days after it came back empty: the service's data late, or the account's pipeline stopped.
  const withRows = ledgerDays.findLast((day) => (state.days[day]?.rows ?? 0) > 0 && day <= state.lastDay) ?? null;
  const waits = runs.reduce(
    (sum, run) => ({ waits: sum.waits + (run.waits ?? 0), waited_ms: sum.waited_ms + (run.waitedMs ?? 0) }),
    { waits: 0, waited_ms: 0 },
  );
  return {
    job: state.id,
    target: facts.target,
    profile: state.job.profile,
    state_file: facts.where,
    time_zone: JOB_TIME_ZONE,
    yesterday: dayText(yesterday),
    newest_day: state.lastDay,
    newest_lag_days: lag,
    newest_day_with_rows: withRows,
    rows_lag_days: withRows === null ? null : yesterday - (dayOfText(withRows) as number),
    settled_through: settled.day,
    settled_lag_days: settled.day === null ? null : yesterday - (dayOfText(settled.day) as number),
    settled_by: settled.basis,
    horizon_days: settled.horizonDays,
    last_run: lastRunOf(runs[0]),
    runs_recorded: runs.length,
    restated: restatements.map((r) => ({ day: r.day, found_at: r.foundAt, lag_days: r.lagDays, repair: r.repair })),
    schema_changes: runs.flatMap((run) => (run.schemaChanges ?? []).map((change) => ({ at: run.at, change }))),
    quota_waits: waits,
    lock:
      holder === undefined ? null : { pid: holder.pid ?? null, host: holder.host ?? null, live: holder.live ?? null },
    max_lag_days: facts.maxLagDays ?? null,
    alerts: alertsOf(facts, now, lag),
  };
}
