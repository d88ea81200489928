/** A report in flight, page by page: what the service sent, shaped by transform/, written by a format or a target. */
import type { ReportMeta, RowPage } from "./response";

export interface ReportStream {
  meta: ReportMeta;
  /** False when the number of rows is known only at the end (a merged report over 90 days). */
  totalKnown: boolean;
  /** The rows, a page at a time: a formatter writes once a page, not once a row. */
  pages: AsyncIterable<RowPage>;
  /** The output columns in order (--fields); every dimension key then every metric when absent. */
  fields?: readonly string[] | undefined;
  /**
   * The totals over every row of the report, rows left out by --top included, ratios from summed counters.
   * Known once `pages` has ended. Absent: a formatter that shows totals sums the rows it saw.
   */
  totals?: (() => ReportTotals) | undefined;
}

export interface ReportTotals {
  rows: number;
  metrics: Record<string, number | null>;
}
