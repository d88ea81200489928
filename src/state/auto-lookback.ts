/**
 * What a job run with `--lookback auto` keeps in its state (`autoLookback`): how far back the service was
 * seen to restate this job's days (`learnedHorizonDays`), the restatements it learned that from, and the
 * decisions of its last runs (which days were checked, which fetched again and why). The day records
 * beside it keep each day's check digests (day-record.ts `checks`).
 */
import { dayOfText, dayText } from "../core/calendar";

/** Why a day was fetched in full by an auto run. */
export interface Refetch {
  day: string;
  why: string;
}

/** One run's decisions, as the ledger keeps them (the last DECISIONS_KEPT runs). */
export interface AutoDecision {
  run: string;
  at: string;
  /** The run's last day (yesterday by its clock): ages of restatements are counted from it. */
  end: string;
  /** `checked`: totals asked and compared; `fetched in full`: the checked days cost no more fetched whole; `fallback`: the service did not answer the totals request. */
  mode: "checked" | "fetched in full" | "fallback";
  /** The days whose totals were asked (or fetched whole), the check's dimensions, and whether it was the periodic deeper check. */
  checked: { from: string; to: string; days: number; by: string; deep: boolean; requests: number } | null;
  /** The days fetched again besides the new ones, each with its reason; `new` days are counted, not listed. */
  refetched: Refetch[];
  newDays: number;
  /** The fixed lookback used instead, and why (fallback only). */
  fallback?: { lookbackDays: number; reason: string };
}

/** One run that saw restatements: its last day and the oldest restated day's age (days before it). */
export interface Restated {
  end: string;
  oldest: number;
}

export interface AutoLookbackState {
  /**
   * The oldest age (days before a run's last day) at which the service restated a day of this job, over
   * the restatements seen in the last LEARNING_DAYS days; null until one is seen. Days older than it are
   * taken as settled (`settledThrough`).
   */
  learnedHorizonDays: number | null;
  /** The runs made with --lookback auto: every DEEP_EVERY-th checks the deep horizon. */
  runs: number;
  /** Per check dimension (`ad`, `campaign`), the most rows one day of its totals held: sizes the next check. */
  checkRowsPerDay: Record<string, number>;
  restated: Restated[];
  decisions: AutoDecision[];
}

export const DECISIONS_KEPT = 30;
/** Restatements seen longer ago than this no longer hold the horizon up: it may shrink again. */
export const LEARNING_DAYS = 90;

export function emptyAutoLookback(): AutoLookbackState {
  return { learnedHorizonDays: null, runs: 0, checkRowsPerDay: {}, restated: [], decisions: [] };
}

/**
 * The newest day the job takes as settled: older than its learned horizon, counted from its last day.
 * Undefined for a job that has not learned one (not run with --lookback auto, or no restatement seen yet).
 */
export function settledThrough(state: {
  lastDay: string;
  autoLookback?: AutoLookbackState | undefined;
}): string | undefined {
  const horizon = state.autoLookback?.learnedHorizonDays;
  const last = dayOfText(state.lastDay);
  if (horizon === null || horizon === undefined || last === undefined) return undefined;
  return dayText(last - horizon - 1);
}

const isDay = (v: unknown): boolean => typeof v === "string" && dayOfText(v) !== undefined;
const isCount = (v: unknown): boolean => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;

function isDecision(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.run === "string" && typeof v.mode === "string" && Array.isArray(v.refetched);
}

export function isAutoLookback(value: unknown): value is AutoLookbackState {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  const rows = v.checkRowsPerDay;
  return (
    (v.learnedHorizonDays === null || isCount(v.learnedHorizonDays)) &&
    isCount(v.runs) &&
    typeof rows === "object" &&
    rows !== null &&
    Object.values(rows).every(isCount) &&
    Array.isArray(v.restated) &&
    v.restated.every((r) => isDay((r as Restated)?.end) && isCount((r as Restated)?.oldest)) &&
    Array.isArray(v.decisions) &&
    v.decisions.every(isDecision)
  );
}
