/** A job's target as `verify` reads it, and as `report` flags: asked of its kind (targets/registry.ts). */
import type { Dimension, Metric, ReportRequest } from "../../contract";
import type { JobState } from "../../state/store";
import type { TargetReading, TargetSpec } from "../../targets/kind";
import { kindOf } from "../../targets/registry";

/** The request of a job's rows, without dates: what makes its rows its own in a table. */
export function jobRequest(state: JobState, range = { from: "", to: "" }): ReportRequest {
  const { job } = state;
  return {
    ...range,
    dimensions: job.dimensions as Dimension[],
    metrics: job.metrics as Metric[],
    granularity: job.granularity,
    ...(job.campaignId !== null ? { campaignId: job.campaignId } : {}),
    ...(job.adId !== null ? { adId: job.adId } : {}),
  };
}

/**
 * How `verify` reads the job's target. `db`: a PostgreSQL job remembers its URL without the password: it
 * comes from PGPASSWORD or ~/.pgpass, or from --db (-o URL) when that names the same database.
 */
export function readingOfJob(
  state: JobState,
  place: { cwd: string; sqliteAddon: object | undefined; tableUrl: string | undefined },
): TargetReading {
  const { cwd, sqliteAddon, tableUrl: db } = place;
  const request = jobRequest(state);
  return kindOf(state.job.target).reading(state.job.target, {
    cwd,
    sqliteAddon,
    db,
    profile: state.job.profile ?? "",
    request,
  });
}

/** The job's target as a plan holds it (its -o as given is the kind's words of it): a job planned from its state. */
export function targetSpecOfJob(state: JobState, db: string | undefined, cwd: string): TargetSpec {
  const kind = kindOf(state.job.target);
  return kind.parse({ ...kind.words(state.job.target, db), dimensions: state.job.dimensions.join(",") }, cwd);
}

/** The job's target as `report`'s -o (and --table): what `verify --repair` runs the job with. */
export function outputWordsOfJob(state: JobState, db: string | undefined): { output: string; table?: string } {
  return kindOf(state.job.target).words(state.job.target, db);
}

/** Day files: the file of `day` (absolute); undefined for a target that keeps no file per day. */
export function dayFileOfJob(state: JobState, day: string): string | undefined {
  return kindOf(state.job.target).dayFile?.(state.job.target, day);
}
