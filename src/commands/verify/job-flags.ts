/** The `report` flags of a job, rebuilt from its state: what `verify` runs the job's days again with. */
import type { JobState } from "../../state/store";
import type { ReportFlags } from "../report/flags";
import type { VerifyOptions } from "./flags";

export function jobFlags(state: JobState, options: VerifyOptions): ReportFlags {
  const { job } = state;
  const target = job.target;
  const hash = target.lastIndexOf("#");
  const table = target.startsWith("sqlite:") || /^postgres(ql)?:\/\//i.test(target);
  const write = state.write;
  return {
    dimensions: job.dimensions.join(","),
    metrics: job.metrics.join(","),
    granularity: job.granularity,
    ...(job.campaignId !== null ? { campaign: String(job.campaignId) } : {}),
    ...(job.adId !== null ? { ad: String(job.adId) } : {}),
    baseUrl: job.baseUrl,
    ...(job.profile !== null ? { profile: job.profile } : {}),
    ...(table
      ? {
          output: target.startsWith("sqlite:") ? target.slice(0, hash) : (options.output ?? target.slice(0, hash)),
          table: target.slice(hash + 1),
        }
      : { output: target }),
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
