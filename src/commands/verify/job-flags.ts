/** The `report` flags of a job, rebuilt from its state: what `verify` runs the job's days again with. */
import { outputWordsOfJob } from "../../engine/verify/job-target";
import type { JobState } from "../../state/store";
import type { ReportFlags } from "../report/flags";

export interface JobFlagChoices {
  /** A PostgreSQL job's database URL with its password (--db). */
  db?: string | undefined;
  stateFile?: string | undefined;
  quiet?: boolean | undefined;
  /** The service to ask, when not the job's own (--base-url). */
  baseUrl?: string | undefined;
}

/** Settings loaded with a job's flags: its profile was named by the job, not typed (for the warnings' words). */
export const JOB_SETTINGS = { profileOfJob: true } as const;

export function jobFlags(state: JobState, choices: JobFlagChoices): ReportFlags {
  const { job } = state;
  const write = state.write;
  return {
    dimensions: job.dimensions.join(","),
    metrics: job.metrics.join(","),
    granularity: job.granularity,
    ...(job.campaignId !== null ? { campaign: String(job.campaignId) } : {}),
    ...(job.adId !== null ? { ad: String(job.adId) } : {}),
    baseUrl: choices.baseUrl ?? job.baseUrl,
    ...(job.profile !== null ? { profile: job.profile } : {}),
    ...outputWordsOfJob(state, choices.db),
    ...(write
      ? {
          format: write.format,
          delimiter: write.delimiter,
          bom: write.bom || undefined,
          spreadsheet: write.spreadsheet,
        }
      : {}),
    incremental: true,
    ...(choices.stateFile !== undefined ? { stateFile: choices.stateFile } : {}),
    ...(choices.quiet === true ? { quiet: true } : {}),
    split: true,
  };
}
