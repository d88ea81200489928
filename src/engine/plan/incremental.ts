/**
 * The range an incremental run fetches. Its end is the last complete UTC day (yesterday by ctx.now()):
 * today is still moving and is never exported in this mode. Its start is the day after the last day the
 * job exported, minus the lookback (days fetched again because the service may have restated them), or
 * --start on the first run. Week and month buckets start on their first day (Monday, the 1st), so a file
 * or a table never holds part of a bucket.
 */
import { bucketFirstDay, bucketUnitOf, dayOfInstant, dayOfText, dayText } from "../../core/calendar";
import { UsageError } from "../../core/errors";
import { readWholeNumber } from "../../core/whole-number";

const MAX_LOOKBACK_DAYS = 366;

/** What --lookback is when not given (days-plan.ts), and what `adreport status` assumes for a run that did not record it. */
export const DEFAULT_LOOKBACK_DAYS = 3;

/** `3d`, `0d`: a whole number of days; `auto`: the days whose totals moved (see parseLookbackChoice). */
export function parseLookback(text: string): number {
  const match = /^(\d+)d$/.exec(text.trim());
  const days = match ? readWholeNumber(match[1] as string) : undefined;
  if (days === undefined || days > MAX_LOOKBACK_DAYS) {
    throw new UsageError(
      `--lookback: ${JSON.stringify(text)} is not a number of days from 0d to ${MAX_LOOKBACK_DAYS}d`,
      {
        hint: "for example --lookback 3d (the default), 0d to fetch each day once, or auto to fetch again only the days whose totals moved",
      },
    );
  }
  return days;
}

/** --lookback as given: `auto`, or a fixed number of days. */
export function parseLookbackChoice(text: string, granularity: string): { days: number; auto: boolean } {
  if (text.trim().toLowerCase() !== "auto") return { days: parseLookback(text), auto: false };
  const unit = bucketUnitOf(granularity) ?? "day";
  if (unit !== "day" && unit !== "hour") {
    // A week's or month's totals move with any of its days: the days cannot be told apart by them.
    throw new UsageError(`--lookback auto: checks daily and hourly jobs, not --granularity ${granularity}`, {
      hint: "give a fixed lookback that covers a bucket: --lookback 31d",
    });
  }
  return { days: 0, auto: true };
}

/** Days since 1970-01-01 of a YYYY-MM-DD text, or undefined when it is not a real date from 1970 on. */
export function dayNumber(text: string): number | undefined {
  const n = dayOfText(text.trim());
  return n !== undefined && n >= 0 ? n : undefined;
}

export function parseStartDay(text: string): number {
  const n = dayNumber(text);
  if (n === undefined) throw new UsageError(`--start: ${JSON.stringify(text)} is not a date (YYYY-MM-DD, UTC)`);
  return n;
}

export type IncrementalRange = { from: string; to: string; warning?: string } | { nothing: string };

export function incrementalRange(options: {
  now: Date;
  lastDay: string | undefined;
  lookbackDays: number;
  start: string | undefined;
  granularity: string;
  /** The job's id, for the warning about a last day after yesterday. */
  job?: string;
}): IncrementalRange {
  const { now } = options;
  const end = dayOfInstant(now) - 1; // yesterday: the last complete UTC day
  const today = end + 1;
  const start = options.start === undefined ? undefined : parseStartDay(options.start);
  let from: number;
  let warning: string | undefined;
  if (options.lastDay !== undefined) {
    let last = dayNumber(options.lastDay) as number;
    if (last > end) {
      // Recorded under a clock that ran ahead: trusted, it would leave every day up to it unfetched for good.
      // Yesterday at least is fetched again, so the state is set right even with --lookback 0d.
      const id = options.job ?? "JOB";
      warning =
        `the state of job ${id} says every day up to ${options.lastDay} is exported, after yesterday (${dayText(end)}): ` +
        `a clock ran ahead; this run continues from yesterday. Days exported under that clock may be empty: ` +
        `adreport state reset ${id} --from DAY exports them again`;
      last = end;
      from = last + 1 - Math.max(options.lookbackDays, 1);
    } else {
      from = last + 1 - options.lookbackDays;
    }
    if (start !== undefined && from < start) from = start;
  } else if (start !== undefined) {
    from = start;
  } else {
    throw new UsageError("--incremental: the first run of a job needs --start DATE, the first day to export", {
      hint: "later runs continue from the last day exported, which the job's state records",
    });
  }
  if (from > end) {
    return {
      nothing:
        options.lastDay !== undefined
          ? `nothing to do: every day up to ${options.lastDay} is exported and today (${dayText(today)}) is not complete`
          : `nothing to do: --start ${dayText(from)} is after yesterday (${dayText(end)})`,
    };
  }
  // A week or month starts on its first day (Monday, the 1st); a day or an hour on the day itself.
  const firstDay = bucketFirstDay(bucketUnitOf(options.granularity) ?? "day", from);
  const range = { from: dayText(firstDay), to: dayText(end) };
  return warning === undefined ? range : { ...range, warning };
}

/** Every day from `from` to `to` (YYYY-MM-DD, inclusive). */
export function daysBetween(from: string, to: string): string[] {
  const a = dayNumber(from);
  const b = dayNumber(to);
  if (a === undefined || b === undefined) return [];
  const days: string[] = [];
  for (let n = a; n <= b; n += 1) days.push(dayText(n));
  return days;
}
