/** The settings a job's runs are made with, from its state: what `verify` asks the service and repairs with. */
import type { ResolvedSettings } from "../../config/resolve";
import type { JobChoices } from "../../engine/plan/for-job";
import { jobCsvWords } from "../../engine/plan/job-csv-words";
import type { JobState } from "../../state/store";
import type { Context } from "../context";
import { settingFlags } from "../shared/setting-flags";
import { loadSettings } from "../shared/settings";

export interface JobFlagChoices extends JobChoices {
  /** The service to ask, when not the job's own (--base-url). */
  baseUrl?: string | undefined;
}

/**
 * The job's profile (named by the job, not typed: for the warnings' words), its service (`baseUrl`, or the
 * profile's own when undefined) and how its day files are written.
 */
export function loadJobSettings(ctx: Context, state: JobState, baseUrl: string | undefined): Promise<ResolvedSettings> {
  const { job, write } = state;
  const words = {
    baseUrl,
    profile: job.profile ?? undefined,
    format: write?.format,
    ...jobCsvWords(write),
  };
  return loadSettings(ctx, settingFlags(words), { profileOfJob: true });
}
