/** What runs into whole-day targets refuse before any request. */
import { isDerivedMetric } from "../../core/derived-metrics";
import { UsageError } from "../../core/errors";
import { TimeZone } from "../../core/time-zone";
import type { ReportFlags } from "./command";
import { dayText, lastCompleteDay } from "./incremental";
import type { TargetChoice } from "./target-choice";

/**
 * Whole UTC days, as the service counts them, are what these targets keep and compare run to run: the flags
 * that re-shape rows (ratios, zones, comparisons, ordering, filling, columns) do not apply to them.
 */
export function refuseShaping(flags: ReportFlags, choice: TargetChoice): void {
  const given = [
    flags.tz !== undefined && TimeZone.open(flags.tz) !== TimeZone.UTC && "--tz",
    flags.compare !== undefined && "--compare",
    flags.sort !== undefined && "--sort",
    flags.top !== undefined && "--top",
    flags.fill === true && "--fill",
    flags.fields !== undefined && "--fields",
    flags.dateFormat !== undefined && "--date-format",
    flags.metrics?.split(",").some((m) => isDerivedMetric(m.trim())) && "ratios in --metrics",
    (flags.format === "html" || flags.format === "chart") && `--format ${flags.format}`,
  ].filter((word): word is string => typeof word === "string");
  if (given.length === 0) return;
  throw new UsageError(
    `${given.join(", ")} cannot be used with ${choice.what}: it keeps the service's UTC days and counters`,
    {
      hint: "export the counters (views, spending, clicks, conversions) and compute ratios, zones and rankings from them downstream",
    },
  );
}

/** A file of a day not yet over (or to come) would look complete: empty, or holding part of the day. */
export function refuseIncompleteDays(toDate: string, now: Date): void {
  const yesterday = dayText(lastCompleteDay(now));
  if (toDate <= yesterday) return;
  throw new UsageError(
    `{date} in --output writes complete days: --to ${toDate} is after the last complete UTC day (${yesterday})`,
    { hint: "end at --to yesterday (the default); a database target takes today's rows and replaces them later" },
  );
}
