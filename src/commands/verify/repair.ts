import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { dayOfText, dayText } from "../../core/calendar";
import { OutputError } from "../../core/errors";
import { runDayExport } from "../../engine/days/export";
import { planForJob } from "../../engine/plan/for-job";
import { dayFileOfJob } from "../../engine/verify/job-target";
import { bucketEnd } from "../../engine/verify/service";
import { type DayDifference, differingDays } from "../../engine/verify/target";
import { notAFile } from "../../io/output-target";
import type { JobState, StatePaths } from "../../state/store";
import type { Context } from "../context";
import { planPlace } from "../shared/plan-place";
import { stderrEvents } from "../shared/stderr-events";
import { type JobFlagChoices, loadJobSettings } from "./job-settings";
import { checkSameJob } from "./same-job";

/** A day (or a stretch `from..to`) `--repair` left as it was, and why. */
export interface Unrepaired {
  day: string;
  reason: string;
  /** The ledger's days it stands for. */
  days: number;
}

/**
 * Consecutive buckets as from..to stretches (a week or a month is its first day in the ledger: the next
 * week's Monday follows it), so a table gone is one run, not one a week.
 */
export function stretchesOf(days: readonly string[], granularity = "day"): Array<{ from: string; to: string }> {
  const numbers = [...new Set(days.map((d) => dayOfText(d) as number))].sort((a, b) => a - b);
  const after = (n: number) => (dayOfText(bucketEnd(granularity, dayText(n), "9999-12-31")) as number) + 1;
  const stretches: Array<{ from: string; to: string }> = [];
  let first = numbers[0];
  for (let i = 0; i < numbers.length; i += 1) {
    const n = numbers[i] as number;
    const next = numbers[i + 1];
    if (next === after(n)) continue;
    stretches.push({ from: dayText(first as number), to: dayText(n) });
    first = next;
  }
  return stretches;
}

/** The days among `days` whose file is there but is no regular file: a repair would write into a reader's pipe. */
async function notFiles(ctx: Context, state: JobState, days: readonly string[]): Promise<Unrepaired[]> {
  const found: Unrepaired[] = [];
  for (const day of days) {
    const file = dayFileOfJob(state, day);
    if (file === undefined) return [];
    const path = resolve(ctx.cwd, file);
    const what = await stat(path).then(notAFile, () => undefined);
    if (what !== undefined) found.push({ day, reason: `${path} is ${what}: not written to`, days: 1 });
  }
  return found;
}

/**
 * `service`: the base URL to ask (verify/service-url.ts), found only when a day is to be repaired. `job.named`:
 * the job as the user gave it, for hints. Returns the days left.
 */
export async function repairDays(
  ctx: Context,
  job: { state: JobState; paths: StatePaths; named: string },
  choices: JobFlagChoices,
  service: () => Promise<string>,
  differences: readonly DayDifference[],
): Promise<Unrepaired[]> {
  const { state } = job;
  // A day after the job's last one is the next run's to write; one before its first is not the job's.
  const first = Object.keys(state.days).sort()[0] ?? state.lastDay;
  const wanted = differingDays(differences).filter((day) => day >= first && day <= state.lastDay);
  if (wanted.length === 0) return [];
  const settings = await loadJobSettings(ctx, state, await service());
  const events = stderrEvents(ctx, {});
  // A day-file folder gone is refused here by the plan (exit 2, with the mkdir that mends it).
  const plan = await planForJob(state, settings, planPlace(ctx, ctx.now(), events.warning), choices);
  checkSameJob(ctx, state, job.paths, plan, job.named);
  const unrepaired = await notFiles(ctx, state, wanted);
  const left = new Set(unrepaired.map((u) => u.day));
  const days = wanted.filter((day) => !left.has(day));
  for (const run of stretchesOf(days, state.job.granularity)) {
    // A week or a month is its first day in the ledger: the whole bucket is fetched again.
    const stretch = { from: run.from, to: bucketEnd(state.job.granularity, run.to, state.lastDay) };
    const label = stretch.from === stretch.to ? stretch.from : `${stretch.from}..${stretch.to}`;
    events.note(`repairing ${label}`);
    try {
      await runDayExport(ctx, plan, events, { repair: stretch, jobBaseUrl: state.job.baseUrl });
    } catch (error) {
      // A day file that cannot be written leaves the other stretches to repair; a table is one target.
      if (!(error instanceof OutputError) || dayFileOfJob(state, run.from) === undefined) throw error;
      const count = days.filter((day) => day >= run.from && day <= run.to).length;
      unrepaired.push({ day: label, reason: error.message, days: count });
    }
  }
  return unrepaired.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
}
