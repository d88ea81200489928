/**
 * `verify --repair`: the days that differ exported again through the job, a run per stretch of consecutive
 * days (the job's lock held by each, its ledger updated, its last day left where it is).
 */
import { dayOfText, dayText } from "../../core/calendar";
import { runDayExport } from "../../engine/day-export";
import { bucketEnd } from "../../engine/verify-service";
import type { DayDifference } from "../../engine/verify-target";
import type { JobState } from "../../state/store";
import type { Context } from "../context";
import { planReport } from "../report/plan";
import { stderrEvents } from "../report/render";
import { reportSettingFlags } from "../report/setting-flags";
import { loadSettings } from "../shared/settings";
import type { VerifyOptions } from "./flags";
import { jobFlags } from "./job-flags";

/** Consecutive days as from..to stretches. */
export function stretchesOf(days: readonly string[]): Array<{ from: string; to: string }> {
  const numbers = [...new Set(days.map((d) => dayOfText(d) as number))].sort((a, b) => a - b);
  const stretches: Array<{ from: string; to: string }> = [];
  let first = numbers[0];
  for (let i = 0; i < numbers.length; i += 1) {
    const n = numbers[i] as number;
    const next = numbers[i + 1];
    if (next === n + 1) continue;
    stretches.push({ from: dayText(first as number), to: dayText(n) });
    first = next;
  }
  return stretches;
}

export async function repairDays(
  ctx: Context,
  state: JobState,
  options: VerifyOptions,
  differences: readonly DayDifference[],
): Promise<void> {
  // A day after the job's last one is the next run's to write; one before its first is not the job's.
  const first = Object.keys(state.days).sort()[0] ?? state.lastDay;
  const days = differences.map((d) => d.day).filter((day) => day >= first && day <= state.lastDay);
  if (days.length === 0) return;
  const flags = jobFlags(state, options);
  const settings = await loadSettings(ctx, reportSettingFlags(flags));
  const events = stderrEvents(ctx, {});
  const plan = await planReport(ctx, flags, settings, { now: ctx.now(), warn: events.warning });
  if (plan.kind !== "days") throw new Error("a job's plan that is not a run of whole days");
  for (const run of stretchesOf(days)) {
    // A week or a month is its first day in the ledger: the whole bucket is fetched again.
    const stretch = { from: run.from, to: bucketEnd(state.job.granularity, run.to, state.lastDay) };
    events.note(`repairing ${stretch.from === stretch.to ? stretch.from : `${stretch.from}..${stretch.to}`}`);
    await runDayExport(ctx, plan, events, { repair: stretch });
  }
}
