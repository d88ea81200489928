/**
 * `adreport status --format json`: one document, declared once here (its type is this schema's, and the
 * tests read the output back through it). Every day is YYYY-MM-DD in the job's time zone; every instant is
 * ISO 8601 UTC. Freshness is measured on the days exported, never on when they were loaded.
 */
import * as z from "zod";

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const instant = z.string();

export const LAST_RUN = z.object({
  at: instant,
  started: instant.nullable(),
  outcome: z.enum(["ok", "failed", "nothing to do"]),
  from: day.nullable(),
  to: day.nullable(),
  rows: z.number().int().nullable(),
  requests: z.number().int().nullable(),
  duration_ms: z.number().int().nullable(),
  days_written: z.number().int().nullable(),
  days_changed: z.number().int().nullable(),
  days_unchanged: z.number().int().nullable(),
  error: z.string().nullable(),
});

export const ALERT = z.object({
  kind: z.enum(["lagging", "failed", "stalled", "unreadable"]),
  text: z.string(),
});

export const JOB_STATUS = z.object({
  job: z.string(),
  target: z.string(),
  profile: z.string().nullable(),
  state_file: z.string(),
  time_zone: z.string(),
  yesterday: day,
  newest_day: day,
  newest_lag_days: z.number().int(),
  newest_day_with_rows: day.nullable(),
  rows_lag_days: z.number().int().nullable(),
  settled_through: day.nullable(),
  settled_lag_days: z.number().int().nullable(),
  settled_by: z.enum(["learned", "restatements", "lookback"]),
  horizon_days: z.number().int(),
  last_run: LAST_RUN.nullable(),
  runs_recorded: z.number().int(),
  restated: z.array(z.object({ day, found_at: instant, lag_days: z.number().int(), repair: z.boolean() })),
  schema_changes: z.array(z.object({ at: instant, change: z.string() })),
  quota_waits: z.object({ waits: z.number().int(), waited_ms: z.number().int() }),
  lock: z
    .object({ pid: z.number().int().nullable(), host: z.string().nullable(), live: z.boolean().nullable() })
    .nullable(),
  max_lag_days: z.number().int().nullable(),
  alerts: z.array(ALERT),
});

/** A job with a run recorded and no state: its first run failed before it exported a day. */
export const NOT_STARTED = z.object({
  job: z.string(),
  state_file: z.string(),
  last_run: LAST_RUN,
  max_lag_days: z.number().int().nullable(),
  alerts: z.array(ALERT),
});

export const STATUS_DOCUMENT = z.object({
  now: instant,
  alert: z.boolean(),
  jobs: z.array(JOB_STATUS),
  not_started: z.array(NOT_STARTED),
  unreadable: z.array(z.string()),
});

export type LastRunStatus = z.infer<typeof LAST_RUN>;
export type Alert = z.infer<typeof ALERT>;
export type JobStatus = z.infer<typeof JOB_STATUS>;
export type NotStartedStatus = z.infer<typeof NOT_STARTED>;
export type StatusDocument = z.infer<typeof STATUS_DOCUMENT>;
