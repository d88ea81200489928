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
  /** Found by `verify --repair`: listed, but no measure of the horizon. */
  repair: boolean;
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
      const lagDays = Math.max(0, last - (dayOfText(day) as number));
      found.push({ day, foundAt: run.at, lagDays, repair: run.repair === true });
    }
  }
  return found;
}

/** The most days before a run's last day a run found a restated day at (repairs aside); undefined when none did. */
export function restatedLagDays(restatements: readonly Restatement[]): number | undefined {
  const runs = restatements.filter((r) => !r.repair);
  return runs.length === 0 ? undefined : Math.max(...runs.map((r) => r.lagDays));
}
