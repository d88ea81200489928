/**
 * The newest day of a job considered settled: older than the days the service may still restate. How far
 * back it restates is what the job's runs have seen (a day found restated k days before the run's last day:
 * the newest k + 1 days may still change); before any was seen, the job's lookback (the days its next run
 * fetches again). The one place this is decided: a horizon learned by `--lookback auto` comes in here.
 */
import { dayText } from "../../core/calendar";

export interface Horizon {
  /** The most days before a run's last day at which a restated day was found, in the runs recorded. */
  restatedLagDays: number | undefined;
  /** The job's lookback in days (its last run's, else report's default). */
  lookbackDays: number;
  /** The oldest age of a restatement `--lookback auto` learned from the job's ledger (state/auto-lookback.ts). */
  learnedHorizonDays?: number | null | undefined;
}

export interface Settled {
  /** YYYY-MM-DD, or null when no day the job exported is settled yet. */
  day: string | null;
  /** How many of the newest days may still change. */
  horizonDays: number;
  /** What the horizon comes from. */
  basis: "learned" | "restatements" | "lookback";
}

/** `newestDay`: the job's newest exported day, as a day number (core/calendar.ts). `firstDay`: its oldest. */
export function settledThrough(newestDay: number, firstDay: number, horizon: Horizon): Settled {
  const learned = horizon.learnedHorizonDays;
  // As state/auto-lookback.ts settledThrough says it: what the job's own checks decide from.
  if (typeof learned === "number") {
    const day = newestDay - learned - 1;
    return { day: day < firstDay ? null : dayText(day), horizonDays: learned + 1, basis: "learned" };
  }
  const seen = horizon.restatedLagDays;
  const basis = seen === undefined ? "lookback" : "restatements";
  const horizonDays = seen === undefined ? horizon.lookbackDays : seen + 1;
  const day = newestDay - horizonDays;
  return { day: day < firstDay ? null : dayText(day), horizonDays, basis };
}
