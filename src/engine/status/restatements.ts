/**
 * What a job's recorded runs say about restatements: each day a run found restated, how many days before
 * the run's last day it was (its lag), and the most seen, which settled.ts takes as the service's horizon.
 */
import { dayOfInstant, dayOfText } from "../../core/calendar";
import type { LastRun } from "../../state/store";

export interface Restatement {
  day: string;
  /** When the run that found it ended. */
  foundAt: string;
  lagDays: number;
}

/** The run's last day: its `to`, else (a failed run's record has none) the day before it ended. */
function lastDayOf(run: LastRun): number {
  const to = run.to === undefined ? undefined : dayOfText(run.to);
  return to ?? dayOfInstant(new Date(run.at)) - 1;
}

/** Every restated day of `runs` (newest first), newest run first, each day once (its latest finding). */
export function restatementsOf(runs: readonly LastRun[]): Restatement[] {
  const seen = new Set<string>();
  const found: Restatement[] = [];
  for (const run of runs) {
    const last = lastDayOf(run);
    for (const day of [...(run.restated ?? [])].sort().reverse()) {
      if (seen.has(day)) continue;
      seen.add(day);
      found.push({ day, foundAt: run.at, lagDays: Math.max(0, last - (dayOfText(day) as number)) });
    }
  }
  return found;
}

/** The most days before a run's last day a restated day was found at; undefined when none was. */
export function restatedLagDays(restatements: readonly Restatement[]): number | undefined {
  return restatements.length === 0 ? undefined : Math.max(...restatements.map((r) => r.lagDays));
}
