/**
 * The stages between the service's rows and a formatter, in their one order:
 * fill empty buckets -> [compare with the previous period] -> totals (for the table) -> derived metrics and
 * the listed ones -> sort / top -> --fields (or only the columns named, for rows that keep their counters) ->
 * --date-format.
 * A stage that is not asked for is not there: a plain export reaches the formatter as the service sent it.
 */
import type { ReportStream } from "../contract/report-stream";
import { type DateText, writeDates } from "./dates";
import { pickFields } from "./fields";
import { type FillRange, fillGaps } from "./fill";
import { type MetricChoice, metricsAsSent, shapeReportMetrics } from "./metrics";
import { type SortOrder, sortRows } from "./sort";
import { countTotals } from "./totals";

export interface TransformPlan {
  metrics: MetricChoice;
  fill?: FillRange | undefined;
  sort?: SortOrder | undefined;
  /** Keep the first N rows after sorting. */
  top?: number | undefined;
  fields?: readonly string[] | undefined;
  dates?: DateText | undefined;
  /** Totals over every row, for a format that shows them (the table). */
  totals: boolean;
}

export function transformReport(report: ReportStream, plan: TransformPlan): ReportStream {
  let stream = report;
  if (plan.fill) stream = fillGaps(stream, plan.fill);
  if (plan.totals) stream = countTotals(stream, plan.metrics);
  if (!metricsAsSent(stream.meta.metrics, plan.metrics)) stream = shapeReportMetrics(stream, plan.metrics);
  if (plan.sort) stream = sortRows(stream, plan.sort, plan.top);
  // Rows that keep their counters are for a format that sums them (html, chart, the table of several
  // accounts): --fields names its columns, and the rows keep the entity's keys and counters to be summed.
  if (plan.fields)
    stream = plan.metrics.keepCounters ? { ...stream, fields: plan.fields } : pickFields(stream, plan.fields);
  if (plan.dates) stream = writeDates(stream, plan.dates);
  return stream;
}
