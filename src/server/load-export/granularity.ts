/**
 * What the dates of an export tell of its buckets (an NDJSON export has no `meta`): hourly, daily, or weekly
 * and monthly, which cannot be loaded (their dates are all Mondays or all 1sts, and loaded as days they
 * would be wrong). Where day and week or month cannot be told apart, the caller says.
 */
import {
  SECONDS_PER_DAY as DAY,
  dayOfSecond,
  SECONDS_PER_HOUR as HOUR,
  monthStart,
  weekStart,
} from "../../core/calendar";
import { ExportShapeError } from "./export-row";

export type ExportGranularity = "hour" | "day";

/** What the dates seen so far rule out. */
export class GranularityEvidence {
  notDayAligned = false;
  notWeek = false;
  notMonth = false;
  /** The UTC hours of day the dates fall on: one or two (a daylight-saving change) for days in a zone. */
  readonly hoursOfDay = new Set<number>();
  /** The shortest step between two dates of one entity. */
  shortestGap: number | undefined;
  private previous: { entity: number; date: number } | undefined;

  see(entity: number, date: number): void {
    if (date % DAY !== 0) this.notDayAligned = true;
    if (this.hoursOfDay.size <= 2) this.hoursOfDay.add(Math.floor((date % DAY) / HOUR));
    const day = dayOfSecond(date);
    if (weekStart(day) !== day) this.notWeek = true;
    if (monthStart(day) !== day) this.notMonth = true;
    const gap = this.previous?.entity === entity ? date - this.previous.date : undefined;
    if (gap !== undefined && gap > 0) this.shortestGap = Math.min(this.shortestGap ?? gap, gap);
    if (gap !== undefined && gap > 0 && gap < 7 * DAY) this.notWeek = true;
    if (gap !== undefined && gap > 0 && gap < 28 * DAY) this.notMonth = true;
    this.previous = { entity, date };
  }
}

/**
 * Buckets of a zone's days, weeks or months (report --tz): every date at one UTC hour of day (two across a
 * daylight-saving change), an entity's dates a day or more apart. Hourly rows fall on other hours too.
 */
function inZoneDays(evidence: GranularityEvidence): boolean {
  const gap = evidence.shortestGap;
  return evidence.hoursOfDay.size <= 2 && gap !== undefined && gap >= 23 * HOUR;
}

export function decideGranularity(
  evidence: GranularityEvidence,
  given: ExportGranularity | undefined,
): ExportGranularity {
  if (evidence.notDayAligned && inZoneDays(evidence) && given !== "hour") {
    if (given === "day" || (evidence.shortestGap ?? 0) <= 25 * HOUR) return "day";
    throw new ExportShapeError("the dates (a zone's midnights, --tz) cannot tell daily from weekly or monthly buckets");
  }
  if (evidence.notDayAligned) {
    if (given === "day")
      throw new ExportShapeError("--granularity day, but some dates are not at 00:00 UTC: the export is hourly");
    return "hour";
  }
  if (given !== undefined) return given;
  if (evidence.notWeek && evidence.notMonth) return "day";
  throw new ExportShapeError(
    evidence.notWeek
      ? "every date is the 1st of a month: monthly buckets cannot be loaded (export with --granularity day or hour)"
      : evidence.notMonth
        ? "every date is a Monday: weekly buckets cannot be loaded (export with --granularity day or hour)"
        : "the dates cannot tell daily from weekly or monthly buckets",
  );
}
