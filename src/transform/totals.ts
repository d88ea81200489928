/**
 * The totals row: every counter summed over every row going by (before --top leaves any out), the output
 * metrics then computed from the sums, so a ratio in the totals is never an average of the rows' ratios.
 * The rows pass untouched (as sent).
 */
import { type RowPage, roundToMicros } from "../contract";
import type { ReportStream, ReportTotals } from "../contract/report-stream";
import { type MetricChoice, shapeMetrics } from "./metrics";

export function countTotals(report: ReportStream, choice: MetricChoice): ReportStream {
  const sums = new Map<string, number>();
  let rows = 0;
  const pages = report.pages;
  async function* counted(): AsyncGenerator<RowPage> {
    for await (const page of pages) {
      rows += page.rows.length;
      for (const row of page.rows) {
        for (const name in row.metrics) {
          const value = row.metrics[name];
          if (typeof value === "number") sums.set(name, (sums.get(name) ?? 0) + value);
        }
      }
      yield page;
    }
  }
  const totals = (): ReportTotals => {
    const summed = Object.fromEntries([...sums].map(([name, sum]) => [name, roundToMicros(sum)]));
    return { rows, metrics: shapeMetrics(summed, choice) };
  };
  return { ...report, pages: counted(), totals };
}
