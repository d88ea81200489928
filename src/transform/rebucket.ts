/**
 * --tz: the service's hourly UTC rows summed into the zone's days, ISO weeks (from Monday) or months, per
 * entity. Counters are summed, never averaged, so ratios computed later from them are exact. A DST day has
 * 23 or 25 hours and is still one bucket. Rows arrive ordered by entity then time, so a bucket is complete
 * when the next one begins: memory holds one bucket per stream, never a map of them.
 * The rows' `date` becomes the epoch second the local bucket starts at; meta says the zone (`tz`).
 */
import { GRANULARITY_WORDS, type ReportRow, type RowPage, roundToMicros } from "../contract";
import type { ReportStream } from "../contract/report-stream";
import { type BucketUnit, bucketUnitOf } from "../core/calendar";
import { UnavailableError } from "../core/errors";
import type { TimeZone } from "../core/time-zone";
import { compareParts, entityIdKey, type OrderPart, orderPart } from "./row-order";

/** Bucket starts already found, per hour: every entity repeats the same hours. Bounded. */
class BucketStarts {
  private readonly starts = new Map<number, number>();
  constructor(
    private readonly zone: TimeZone,
    private readonly unit: BucketUnit,
  ) {}

  of(hour: number): number {
    let start = this.starts.get(hour);
    if (start === undefined) {
      start = this.zone.bucketStart(this.unit, hour);
      if (this.starts.size >= 50_000) this.starts.clear();
      this.starts.set(hour, start);
    }
    return start;
  }
}

interface Open {
  row: ReportRow;
  entity: OrderPart;
  bucket: number;
}

function dateOf(row: ReportRow): number {
  const date = row.dimensions.date;
  if (typeof date !== "number" || !Number.isFinite(date)) {
    throw new UnavailableError(
      `the service sent a row whose date is not epoch seconds (${JSON.stringify(String(date).slice(0, 40))}), so --tz buckets cannot be built from it`,
    );
  }
  return date;
}

function addInto(target: ReportRow, row: ReportRow): void {
  for (const [name, value] of Object.entries(row.metrics)) {
    if (value === null) continue;
    target.metrics[name] = roundToMicros((target.metrics[name] ?? 0) + value);
  }
}

/** The report in `zone`: hourly rows summed into `unit` buckets (for `hour`, only meta changes). */
export function rebucket(report: ReportStream, zone: TimeZone, unit: BucketUnit): ReportStream {
  const meta = { ...report.meta, tz: zone.name };
  if (unit === "hour" || !report.meta.dimensions.includes("date")) return { ...report, meta };
  // Longer buckets than hours cannot be cut into local days; a granularity word it does not know is trusted.
  const sent = bucketUnitOf(report.meta.granularity);
  if (sent !== undefined && sent !== "hour") {
    throw new UnavailableError(
      `the service answered ${JSON.stringify(report.meta.granularity.slice(0, 40))} buckets when asked for hourly ones, so --tz buckets cannot be built from them`,
    );
  }
  const idKey = entityIdKey(report.meta);
  const starts = new BucketStarts(zone, unit);
  async function* pages(): AsyncGenerator<RowPage> {
    let open: Open | undefined;
    for await (const page of report.pages) {
      const done: ReportRow[] = [];
      for (const row of page.rows) {
        const entity = orderPart(row, idKey);
        const bucket = starts.of(dateOf(row));
        if (open !== undefined) {
          const order = compareParts(entity, open.entity) || bucket - open.bucket;
          if (order === 0) {
            addInto(open.row, row);
            continue;
          }
          if (order < 0) {
            throw new UnavailableError(
              "the service's rows are not in entity-then-date order, so --tz buckets cannot be built from them",
            );
          }
          done.push(open.row);
        }
        open = {
          row: { ...row, dimensions: { ...row.dimensions, date: bucket }, metrics: { ...row.metrics } },
          entity,
          bucket,
        };
      }
      if (done.length > 0) yield { rows: done };
    }
    if (open !== undefined) yield { rows: [open.row] };
  }
  return {
    meta: { ...meta, granularity: GRANULARITY_WORDS[unit], total: 0 },
    totalKnown: false,
    pages: pages(),
  };
}
