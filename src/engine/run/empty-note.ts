/**
 * A report that comes back without a row says so on stderr, with the range and zone asked for
 * (`adreport: no rows for 2026-11-17..2026-11-23 (UTC)`): a header alone on stdout does not tell a wrong
 * range from a quiet week. stdout keeps only the data, and the exit code stays 0.
 */

import type { ReportStream } from "../../contract/report-stream";
import { formatDateTime } from "../../core/calendar";
import { TimeZone } from "../../core/time-zone";
import type { ComparedPeriod } from "../plan/compare";
import type { RequestPlan } from "../plan/request";

/** The stream as it was, and how many rows went through it so far. */
export function countingRows(report: ReportStream): { report: ReportStream; rows(): number } {
  let rows = 0;
  async function* pages() {
    for await (const page of report.pages) {
      rows += page.rows.length;
      yield page;
    }
  }
  return { report: { ...report, pages: pages() }, rows: () => rows };
}

function isDayStart(zone: TimeZone, sec: number): boolean {
  return zone.dayStart(zone.localDay(sec)) === sec;
}

/** `2026-11-17..2026-11-23` for whole days (of the zone), else the instants. */
export function rangeText(zone: TimeZone, range: { from: number; to: number }): string {
  if (isDayStart(zone, range.from) && isDayStart(zone, range.to + 1)) {
    const [from, to] = [zone.dateText(range.from), zone.dateText(range.to)];
    return from === to ? from : `${from}..${to}`;
  }
  const instant = (sec: number) => (zone === TimeZone.UTC ? formatDateTime(sec) : zone.dateTimeText(sec));
  return `${instant(range.from)}..${instant(range.to)}`;
}

/**
 * The note for a report that wrote `rows` rows: empty when it wrote some, or when the --ad/--campaign
 * `warning` already said why the report is empty.
 */
export function emptyNote(
  rows: number | undefined,
  plan: RequestPlan,
  compared: ComparedPeriod | undefined,
  warning: string | undefined,
): string {
  if (rows === undefined || rows > 0 || warning !== undefined) return "";
  const periods = [plan.range, ...(compared ? [compared.range] : [])].map((r) => rangeText(plan.zone, r));
  return `no rows for ${periods.join(" or ")} (${plan.zone.name})`;
}
