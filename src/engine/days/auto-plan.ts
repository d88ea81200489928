/**
 * What a --lookback auto run will do before it asks anything: the days it checks (its horizon, learned
 * from the ledger), by which dimension, and whether checking costs less than fetching those days whole.
 * Shared by a run and by --dry-run, which makes no request.
 */
import { dayOfText, dayText } from "../../core/calendar";
import { type AutoLookbackState, emptyAutoLookback } from "../../state/auto-lookback";

export { settledThrough } from "../../state/auto-lookback";

import type { JobState } from "../../state/store";
import { fallbackLookback, type Horizon, horizonOf } from "./auto-horizon";
import { type CheckGrain, grainsOf } from "./check-digest";

export interface AutoPlan {
  auto: AutoLookbackState;
  horizon: Horizon;
  /** The run's last day (yesterday) and its first new day. */
  end: string;
  newFrom: string;
  /** The days the ledger records that are checked, oldest first (empty on a job's first run). */
  checked: string[];
  grain: CheckGrain;
  /** `check`: totals asked first; `fetched in full`: the checked days cost no more pages fetched whole. */
  mode: "check" | "fetched in full";
  /** Estimated pages: of the totals over the checked days, and of those days fetched whole. */
  pages: { check: number; full: number };
  /** The fixed lookback a run uses when the service does not answer the totals request. */
  fallbackDays: number;
  /** The first day the state records (a fallback never fetches before it); undefined on a first run. */
  firstDay: string | undefined;
}

const WINDOW_DAYS = 90;

/** Rows of a day by the ledger; a day it lacks (a new day) as the mean of its last week. */
export function rowsEstimate(state: JobState | undefined): (day: string) => number {
  const recorded = Object.entries(state?.days ?? {});
  const recent = recorded.slice(-7);
  const mean = recent.length === 0 ? 0 : recent.reduce((n, [, r]) => n + r.rows, 0) / recent.length;
  return (day) => state?.days[day]?.rows ?? mean;
}

function pagesOver(days: readonly string[], rowsOf: (day: string) => number, pageSize: number): number {
  let pages = 0;
  for (let i = 0; i < days.length; i += WINDOW_DAYS) {
    const rows = days.slice(i, i + WINDOW_DAYS).reduce((n, d) => n + rowsOf(d), 0);
    pages += Math.max(1, Math.ceil(rows / pageSize));
  }
  return pages;
}

export function planAuto(input: {
  state: JobState | undefined;
  /** The new days' range (a lookback of 0 days). */
  newFrom: string;
  end: string;
  dimensions: readonly string[];
  pageSize: number;
}): AutoPlan {
  const { state, newFrom, end, pageSize } = input;
  const auto = state?.autoLookback ?? emptyAutoLookback();
  const horizon = horizonOf(auto);
  const grains = grainsOf(input.dimensions);
  const endN = dayOfText(end) as number;
  const checked: string[] = [];
  if (state !== undefined) {
    const first = Object.keys(state.days)[0];
    // The horizon counts the run's last day: a deeper check and its new day go in one 90-day request.
    const from = Math.max(endN - horizon.days + 1, first === undefined ? endN : (dayOfText(first) as number));
    for (let n = from; n < (dayOfText(newFrom) as number); n += 1) checked.push(dayText(n));
  }
  // Rows a day of totals takes: as the last check by that dimension found; for the job's own entity before
  // any, its rows a day in the ledger (exact for a daily job, at most 24 times too many for an hourly one:
  // a coarser check is chosen rather than hundreds of pages of an entity never measured).
  const recent = Object.values(state?.days ?? {}).slice(-7);
  const ledgerRows = recent.length === 0 ? 1 : Math.max(1, ...recent.map((r) => r.rows));
  const perDay = (grain: CheckGrain) =>
    grain === "date" ? 1 : (auto.checkRowsPerDay[grain] ?? (grain === grains[0] ? ledgerRows : 1));
  // The finest dimension whose totals fit one page per 90 days. The deeper check asks at least by campaign
  // (ad, campaign jobs), whatever pages that takes, so rows moved between campaigns are caught within a week.
  const asked = checked.length + Math.max(0, endN - (dayOfText(newFrom) as number) + 1);
  const fits = (grain: CheckGrain) =>
    Math.max(1, Math.ceil((perDay(grain) * asked) / pageSize)) <= Math.ceil(asked / WINDOW_DAYS);
  const entities = grains.filter((g) => g !== "date");
  const grain = grains.find(fits) ?? (horizon.deep ? entities.at(-1) : undefined) ?? "date";
  const rowsOf = rowsEstimate(state);
  const fresh: string[] = [];
  for (let n = dayOfText(newFrom) as number; n <= endN; n += 1) fresh.push(dayText(n));
  const check = checked.length === 0 ? 0 : pagesOver([...checked, ...fresh], () => perDay(grain), pageSize);
  const full = checked.length === 0 ? 0 : pagesOver([...checked, ...fresh], rowsOf, pageSize);
  const alone = pagesOver(fresh, rowsOf, pageSize);
  return {
    auto,
    horizon,
    end,
    newFrom,
    checked,
    grain,
    mode: checked.length > 0 && full > check + alone ? "check" : "fetched in full",
    pages: { check, full },
    fallbackDays: fallbackLookback(auto),
    firstDay: state === undefined ? undefined : Object.keys(state.days)[0],
  };
}
