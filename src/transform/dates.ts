/**
 * --date-format: how `date` is written. The service sends epoch seconds, which JSON and NDJSON keep and the
 * text formats show as ISO 8601; this stage writes the other form where the user asks for it.
 */

import type { ReportStream } from "../contract/report-stream";
import { bucketDateText, bucketUnitOf } from "../core/calendar";
import { rewritePages } from "./pages";

/** A bucket start as written: a date for days and longer buckets, a date-time for hours (as the text formats). */
export type DateText = (sec: number) => string;

export function isoDates(granularity: string): DateText {
  const hourly = bucketUnitOf(granularity) === "hour";
  return (sec) => bucketDateText(sec, hourly);
}

/** Epoch seconds as text: a text format then writes them as they are rather than as a date. */
export const epochDates: DateText = (sec) => String(sec);

export function writeDates(report: ReportStream, text: DateText): ReportStream {
  return {
    ...report,
    pages: rewritePages(report.pages, (rows) =>
      rows.map((row) => {
        const date = row.dimensions.date;
        return typeof date === "number" ? { ...row, dimensions: { ...row.dimensions, date: text(date) } } : row;
      }),
    ),
  };
}
