/**
 * How far back a --lookback auto run checks, learned from the job's ledger: the oldest age at which the
 * service restated one of its days in the last 90 days, plus a margin; every 7th run checks at least 90
 * days (the deeper check), so a restatement reaching further than anything seen so far is found within a
 * week of daily runs and the horizon grows to it. Until a run has checked, the horizon is the deep one.
 */
import { dayOfText, dayText } from "../../core/calendar";
import { type AutoLookbackState, LEARNING_DAYS, type Restated } from "../../state/auto-lookback";

export const DEEP_EVERY = 7;
export const DEEP_DAYS = 90;
export const MIN_MARGIN_DAYS = 7;
export const MAX_HORIZON_DAYS = 366;
/** The fixed lookback a run falls back to when nothing is learned yet: the default of --lookback. */
export const DEFAULT_LOOKBACK_DAYS = 3;

/** The oldest restated age among the runs of the last LEARNING_DAYS days before `end`; 0 when none. */
export function learnHorizon(restated: readonly Restated[], end: string): number {
  const last = dayOfText(end) ?? 0;
  let oldest = 0;
  for (const r of restated) {
    const on = dayOfText(r.end);
    if (on !== undefined && last - on < LEARNING_DAYS) oldest = Math.max(oldest, r.oldest);
  }
  return oldest;
}

/** The restatements worth keeping: those of the last LEARNING_DAYS days, and this run's (when it saw any). */
export function keepRestated(restated: readonly Restated[], end: string, oldest: number | undefined): Restated[] {
  const last = dayOfText(end) ?? 0;
  const kept = restated.filter((r) => last - (dayOfText(r.end) ?? 0) < LEARNING_DAYS && r.end !== end);
  return oldest === undefined ? kept : [...kept, { end, oldest }];
}

/** The margin over the learned horizon: half of it, at least a week. */
export function normalHorizon(learned: number): number {
  return Math.min(MAX_HORIZON_DAYS, learned + Math.max(MIN_MARGIN_DAYS, Math.ceil(learned / 2)));
}

export interface Horizon {
  /** The days back from the run's last day (itself included) that are covered: checked, or new. */
  days: number;
  deep: boolean;
  /** Why this many, in words (dry run, ledger). */
  why: string;
}

/** This run's horizon: the deep one on every DEEP_EVERY-th run and before anything is learned. */
export function horizonOf(auto: Pick<AutoLookbackState, "learnedHorizonDays" | "runs">): Horizon {
  const learned = auto.learnedHorizonDays;
  if (learned === null) {
    return { days: DEEP_DAYS, deep: true, why: `nothing learned yet: the deep check of ${DEEP_DAYS} days` };
  }
  const normal = normalHorizon(learned);
  const run = auto.runs + 1;
  if (run % DEEP_EVERY === 0) {
    const days = Math.max(DEEP_DAYS, normal);
    return { days, deep: true, why: `run ${run}: every ${DEEP_EVERY}th run checks ${days} days` };
  }
  return { days: normal, deep: false, why: `learned horizon ${learned} days + ${normal - learned} days of margin` };
}

/** What a run that cannot ask for totals fetches again: what the job learned (with its margin), else the default. */
export function fallbackLookback(auto: Pick<AutoLookbackState, "learnedHorizonDays">): number {
  const learned = auto.learnedHorizonDays;
  return learned === null ? DEFAULT_LOOKBACK_DAYS : Math.max(DEFAULT_LOOKBACK_DAYS, normalHorizon(learned));
}

/** `day` minus `n` days. */
export function daysBefore(day: string, n: number): string {
  return dayText((dayOfText(day) ?? 0) - n);
}
