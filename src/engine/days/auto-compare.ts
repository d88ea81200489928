/**
 * The comparison a --lookback auto run makes between the service's totals and the job's ledger, and the
 * spans it then fetches: which days moved (and why, in words), and which of them go into one request.
 */
import { dayOfText, dayText } from "../../core/calendar";
import type { Refetch } from "../../state/auto-lookback";
import { type DayRecord, totalDifferences } from "../../state/day-record";
import { type CheckGrain, NO_ROWS_DIGEST } from "./check-digest";

export interface CheckedDay {
  sums: Record<string, number>;
  /** Undefined when the service's rows of the day could not be tallied by the grain. */
  digest: string | undefined;
}

/**
 * Why `day` must be fetched again, or undefined when the service's totals for it are as the last check (or
 * the day's own rows) left them. The digest at this grain is compared first: totals to totals, so a service
 * whose totals round otherwise than its rows costs a day one fetch, not one every run. A day whose record
 * has no digest at this grain yet (a state kept by a fixed lookback) is taken on its sums alone.
 */
export function whyMoved(before: DayRecord | undefined, now: CheckedDay, grain: CheckGrain): string | undefined {
  if (before === undefined) return "not in the ledger";
  const sums = Object.fromEntries(Object.keys(before.sums).map((m) => [m, now.sums[m] ?? 0]));
  const totals = totalDifferences({ rows: 0, sums: before.sums }, { rows: 0, sums });
  const recorded = before.checks?.[grain];
  if (recorded === undefined || now.digest === undefined) {
    return totals.length > 0 ? `totals moved: ${totals.join(", ")}` : undefined;
  }
  if (recorded === now.digest) return undefined;
  if (totals.length > 0) return `totals moved: ${totals.join(", ")}`;
  return grain === "date" ? "totals moved since the last check" : `rows moved between ${grain}s, totals the same`;
}

/** Every day from `from` to `to` the ledger or the check knows, compared: the days that moved, oldest first. */
export function movedDays(
  days: readonly string[],
  ledger: (day: string) => DayRecord | undefined,
  checked: ReadonlyMap<string, CheckedDay>,
  grain: CheckGrain,
): Refetch[] {
  const moved: Refetch[] = [];
  for (const day of days) {
    const now = checked.get(day) ?? { sums: {}, digest: NO_ROWS_DIGEST };
    const why = whyMoved(ledger(day), now, grain);
    if (why !== undefined) moved.push({ day, why });
  }
  return moved;
}

export interface DaySpanToFetch {
  from: string;
  to: string;
}

/**
 * The days to fetch as spans of consecutive days, neighbours joined where one request over both and the
 * days between costs no more pages than two (by the ledger's rows per day); never over 90 days.
 */
export function spansToFetch(
  days: readonly string[],
  rowsOf: (day: string) => number,
  pageSize: number,
): DaySpanToFetch[] {
  const numbers = [...new Set(days)].map((d) => dayOfText(d) as number).sort((a, b) => a - b);
  const runs: Array<[number, number]> = [];
  for (const n of numbers) {
    const last = runs.at(-1);
    if (last && n === last[1] + 1) last[1] = n;
    else runs.push([n, n]);
  }
  const rows = (a: number, b: number) => {
    let total = 0;
    for (let n = a; n <= b; n += 1) total += rowsOf(dayText(n));
    return total;
  };
  const pages = (a: number, b: number) => Math.max(1, Math.ceil(rows(a, b) / pageSize));
  const merged: Array<[number, number]> = [];
  for (const run of runs) {
    const last = merged.at(-1);
    if (last && run[1] - last[0] < 90 && pages(last[0], run[1]) <= pages(last[0], last[1]) + pages(run[0], run[1])) {
      last[1] = run[1];
    } else {
      merged.push([...run]);
    }
  }
  return merged.map(([a, b]) => ({ from: dayText(a), to: dayText(b) }));
}
