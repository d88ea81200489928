/**
 * --fill: a row of zeros for every bucket of the range in which an entity seen in the report (or, without
 * an entity, the report itself) has no row. Rows come ordered by entity, then bucket (contract.md A3), so
 * one entity's gaps are known as its rows go by, and memory holds one entity at a time.
 */
import type { ReportRow } from "../contract";
import type { ReportStream } from "../format/formatter";
import type { BucketClock } from "./buckets";
import { rewritePages } from "./pages";

export interface FillRange {
  /** First and last second of the range, inclusive. */
  fromSec: number;
  toSec: number;
  clock: BucketClock;
  /** The dimension key that tells entities apart (campaign_id, ad_id); undefined for a date-only report. */
  entityKey: string | undefined;
}

interface Series {
  id: unknown;
  /** The entity's dimensions, copied into its zero rows. */
  dimensions: ReportRow["dimensions"];
  /** The first bucket not yet written. */
  cursor: number;
}

export function fillGaps(report: ReportStream, range: FillRange): ReportStream {
  const { clock, entityKey, toSec } = range;
  const first = clock.floor(range.fromSec);
  const zeros = Object.fromEntries(report.meta.metrics.map((m) => [m, 0]));
  const zeroRow = (series: Series): ReportRow => ({
    dimensions: { ...series.dimensions, date: series.cursor },
    metrics: { ...zeros },
  });
  /** Zero rows for the series' empty buckets that end at or before `until`. */
  const gapsBefore = (series: Series, until: number, out: ReportRow[]) => {
    while (series.cursor <= toSec && clock.next(series.cursor) <= until) {
      out.push(zeroRow(series));
      series.cursor = clock.next(series.cursor);
    }
  };
  const entityOf = (row: ReportRow): Series => {
    const { date: _date, ...dimensions } = row.dimensions;
    return { id: entityKey === undefined ? undefined : row.dimensions[entityKey], dimensions, cursor: first };
  };
  const pages = report.pages;
  async function* filled() {
    let series: Series | undefined =
      entityKey === undefined ? { id: undefined, dimensions: {}, cursor: first } : undefined;
    yield* rewritePages(pages, (rows) => {
      const out: ReportRow[] = [];
      for (const row of rows) {
        if (series === undefined || (entityKey !== undefined && row.dimensions[entityKey] !== series.id)) {
          if (series !== undefined) gapsBefore(series, Number.POSITIVE_INFINITY, out);
          series = entityOf(row);
        }
        const date = row.dimensions.date;
        if (typeof date === "number") {
          gapsBefore(series, date, out);
          if (date >= series.cursor) series.cursor = clock.next(clock.floor(date));
        }
        out.push(row);
      }
      return out;
    });
    if (series !== undefined) {
      const out: ReportRow[] = [];
      gapsBefore(series, Number.POSITIVE_INFINITY, out);
      if (out.length > 0) yield { rows: out };
    }
  }
  return { ...report, totalKnown: false, meta: { ...report.meta, total: 0 }, pages: filled() };
}
