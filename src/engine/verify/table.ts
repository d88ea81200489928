/** A database job's table, opened read-only for `verify` from what the job's state says it is. */
import type { Dimension, Metric, ReportRequest } from "../../contract";
import { databaseIdentity } from "../../core/database-label";
import { UsageError } from "../../core/errors";
import { jobTarget } from "../../state/job";
import type { JobState } from "../../state/store";
import { openTableReader } from "../../targets/table/reader";

/** The request of a job's rows, without dates: what makes its rows its own in the table. */
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
 * `sqlite:/abs/path#table` or `postgres://user@host/db#table`. A PostgreSQL job remembers its URL without the
 * password: it comes from PGPASSWORD or ~/.pgpass, or from --output URL when that names the same database.
 */
export function tableOfJob(state: JobState, tableUrl: string | undefined) {
  const target = jobTarget(state.job.target);
  if (target.kind === "days") throw new Error(`the job ${state.id} writes day files, not a table`);
  if (target.kind === "sqlite") return { kind: "sqlite" as const, path: target.path, table: target.table };
  if (tableUrl !== undefined && databaseIdentity(tableUrl) !== target.where) {
    throw new UsageError(`--output names another database than the job's (${target.where})`);
  }
  return {
    kind: "postgres" as const,
    url: tableUrl ?? target.where,
    table: target.table,
    shown: target.where,
    connectTimeoutMs: 30_000,
  };
}

export async function openTableForJob(
  state: JobState,
  place: { cwd: string; sqliteAddon: object | undefined; tableUrl: string | undefined },
) {
  return openTableReader(tableOfJob(state, place.tableUrl), {
    profile: state.job.profile ?? "",
    request: jobRequest(state),
    cwd: place.cwd,
    sqliteAddon: place.sqliteAddon,
  });
}
