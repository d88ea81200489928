/** The `report` flags of a job, rebuilt from its state: what `verify` runs the job's days again with. */
import { tableOfJob } from "../../engine/verify-table";
import { isTableIdentity } from "../../state/job";
import type { JobState } from "../../state/store";
import type { ReportFlags } from "../report/flags";
import type { VerifyOptions } from "./flags";

export function jobFlags(state: JobState, options: VerifyOptions): ReportFlags {
  const { job } = state;
  const table = isTableIdentity(job.target) ? tableOfJob(state, options.output) : undefined;
  const write = state.write;
  return {
    dimensions: job.dimensions.join(","),
    metrics: job.metrics.join(","),
    granularity: job.granularity,
    ...(job.campaignId !== null ? { campaign: String(job.campaignId) } : {}),
    ...(job.adId !== null ? { ad: String(job.adId) } : {}),
    baseUrl: job.baseUrl,
    ...(job.profile !== null ? { profile: job.profile } : {}),
    ...(table === undefined
      ? { output: job.target }
      : { output: table.kind === "sqlite" ? `sqlite:${table.path}` : table.url, table: table.table }),
    ...(write
      ? {
          format: write.format,
          delimiter: write.delimiter,
          bom: write.bom || undefined,
          spreadsheet: write.spreadsheet,
        }
      : {}),
    incremental: true,
    ...(options.stateFile !== undefined ? { stateFile: options.stateFile } : {}),
    ...(options.quiet === true ? { quiet: true } : {}),
    split: true,
  };
}
