/**
 * --compare over a period the service has no data for (it lies before the service's first data, or before
 * the account began): the `_prev` columns came out empty without a word, as 75 of 90 rows of the README's
 * recipe did on 35 days of demo data. The earlier period's rows are watched as the service sends them, and
 * after the export one note says where they began, or that there were none.
 */
import type { ReportStream } from "../../contract/report-stream";
import type { ComparedPeriod } from "../plan/compare";
import type { RequestPlan } from "../plan/request";
import { rangeText } from "./empty-note";

export interface ComparedCoverage {
  /** The earlier period's report as it was, watched. */
  watch(report: ReportStream): ReportStream;
  /** The note after an export that wrote rows; empty when the earlier period had data from its first day. */
  note(plan: RequestPlan, period: ComparedPeriod): string;
}

export function comparedCoverage(): ComparedCoverage {
  let rows = 0;
  let first: number | undefined;
  return {
    watch(report) {
      async function* pages() {
        for await (const page of report.pages) {
          for (const row of page.rows) {
            rows += 1;
            const date = row.dimensions.date;
            if (typeof date === "number" && (first === undefined || date < first)) first = date;
          }
          yield page;
        }
      }
      return { ...report, pages: pages() };
    },
    note(plan, period) {
      const { zone } = plan;
      const compared = `the compared period ${rangeText(zone, period.range)} (${zone.name})`;
      if (rows === 0) {
        return `${compared} has no rows: it may lie before the service's first data, so no _prev value is data`;
      }
      if (first === undefined || zone.localDay(first) <= zone.localDay(period.range.from)) return "";
      return `${compared} has no rows before ${zone.dateText(first)}: the service's data may start there, so no _prev value before it is data`;
    },
  };
}
