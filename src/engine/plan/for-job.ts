/**
 * The plan of an incremental job's run, derived from its state (what `verify --repair` writes the days
 * that differ with): the job's query, its output, how its day files are written, and the settings of its
 * profile. Planned as `report --incremental` plans the job's own runs, so both are one job.
 */
import type { ResolvedSettings } from "../../config/resolve";
import type { JobState } from "../../state/store";
import { kindOf } from "../../targets/registry";
import type { PlanPlace } from "./common";
import { jobCsvWords } from "./job-csv-words";
import type { DayPlan } from "./plan";
import { planWords } from "./report-plan";
import type { ReportWords } from "./words";

export interface JobChoices {
  /** A PostgreSQL job's database URL with its password (`verify --db`). */
  readonly db?: string | undefined;
  /** The job's state file, when its runs are given one (--state-file). */
  readonly stateFile?: string | undefined;
  readonly quiet?: boolean | undefined;
}

/** The output the job writes, in the words that name it (its kind's): its day files' template, or its table. */
function jobOutput(state: JobState, db: string | undefined): Pick<ReportWords, "output" | "table"> {
  return kindOf(state.job.target).words(state.job.target, db);
}

/** The words of the job's runs: its query, its output, its day files' format, whole days fetched in windows. */
export function jobWords(state: JobState, choices: JobChoices): ReportWords {
  const { job, write } = state;
  return {
    dimensions: job.dimensions.join(","),
    metrics: job.metrics.join(","),
    granularity: job.granularity,
    campaign: job.campaignId === null ? undefined : String(job.campaignId),
    ad: job.adId === null ? undefined : String(job.adId),
    ...jobOutput(state, choices.db),
    format: write?.format,
    ...jobCsvWords(write),
    bom: write?.bom === true ? true : undefined,
    incremental: true,
    stateFile: choices.stateFile,
    quiet: choices.quiet === true ? true : undefined,
    split: true,
  };
}

/**
 * `settings`: those of the job's profile (its key; its base URL, or the one `verify --base-url` names),
 * loaded with the job's day-file words (format, delimiter, spreadsheet) as flags: commands/verify/job-settings.ts.
 */
export async function planForJob(
  state: JobState,
  settings: ResolvedSettings,
  place: PlanPlace,
  choices: JobChoices = {},
): Promise<Readonly<DayPlan>> {
  const plan = await planWords(place, jobWords(state, choices), settings);
  if (plan.kind !== "days") throw new Error("a job's plan that is not a run of whole days");
  return plan;
}
