/**
 * --fill: a row of zeros for every bucket of the range in which an entity seen in the report (or, without
 * an entity, the report itself) has no row. Rows come ordered by entity, then bucket (docs/service.md §4), so
 * one entity's gaps are known as its rows go by, and memory holds one entity at a time.
 */
import type { ReportRow, RowPage } from "../contract";
import type { ReportStream } from "../contract/report-stream";
import { UnavailableError } from "../core/errors";
import type { BucketClock } from "./buckets";
import { PAGE_ROWS } from "./pages";
import { compareParts, type OrderPart, orderPart } from "./row-order";

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

function outOfOrder(): UnavailableError {
  return new UnavailableError(
    "the service's rows are not in entity-then-date order, so --fill cannot tell which buckets are empty",
  );
}

function notEpoch(date: unknown): UnavailableError {
  return new UnavailableError(
    `the service sent a row whose date is not epoch seconds (${JSON.stringify(String(date).slice(0, 40))}), so --fill cannot tell which buckets are empty`,
  );
}

export function fillGaps(report: ReportStream, range: FillRange): ReportStream {
  const { clock, entityKey, toSec } = range;
  const first = clock.floor(range.fromSec);
  const zeros = Object.fromEntries(report.meta.metrics.map((m) => [m, 0]));
  const zeroRow = (series: Series): ReportRow => ({
    dimensions: { ...series.dimensions, date: series.cursor },
    metrics: { ...zeros },
  });
  const entityOf = (row: ReportRow): Series => {
    const { date: _date, ...dimensions } = row.dimensions;
    return { id: entityKey === undefined ? undefined : row.dimensions[entityKey], dimensions, cursor: first };
  };
  const pages = report.pages;
  async function* filled(): AsyncGenerator<RowPage> {
    let out: ReportRow[] = [];
    // Pages of at most PAGE_ROWS: a long gap (hours over years) never sits in memory whole.
    function* flush(all: boolean): Generator<RowPage> {
      while (out.length >= PAGE_ROWS || (all && out.length > 0)) {
        yield { rows: out.slice(0, PAGE_ROWS) };
        out = out.slice(PAGE_ROWS);
      }
    }
    /** Zero rows for the series' empty buckets that end at or before `until`. */
    function* gapsBefore(series: Series, until: number): Generator<RowPage> {
      while (series.cursor <= toSec && clock.next(series.cursor) <= until) {
        out.push(zeroRow(series));
        series.cursor = clock.next(series.cursor);
        if (out.length >= PAGE_ROWS) yield* flush(false);
      }
    }
    let series: Series | undefined =
      entityKey === undefined ? { id: undefined, dimensions: {}, cursor: first } : undefined;
    // The entity and bucket of the row before: gaps are known only when rows come in that order.
    let last: { entity: OrderPart; bucket: number } | undefined;
    for await (const page of pages) {
      for (const row of page.rows) {
        const entity = orderPart(row, entityKey);
        const date = row.dimensions.date;
        if (typeof date !== "number" || !Number.isFinite(date)) throw notEpoch(date);
        const bucket = clock.floor(date);
        if (last !== undefined && (compareParts(entity, last.entity) || bucket - last.bucket) < 0) throw outOfOrder();
        last = { entity, bucket };
        if (series === undefined || (entityKey !== undefined && row.dimensions[entityKey] !== series.id)) {
          if (series !== undefined) yield* gapsBefore(series, Number.POSITIVE_INFINITY);
          series = entityOf(row);
        }
        yield* gapsBefore(series, date);
        if (date >= series.cursor) series.cursor = clock.next(bucket);
        out.push(row);
      }
      yield* flush(false);
    }
    if (series !== undefined) yield* gapsBefore(series, Number.POSITIVE_INFINITY);
    yield* flush(true);
  }
  return { ...report, totalKnown: false, meta: { ...report.meta, total: 0 }, pages: filled() };
}
