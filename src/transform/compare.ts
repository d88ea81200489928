/**
 * --compare: the report paired with the same report over an earlier period. Entities are matched by id and
 * date buckets by their position in the period (the 3rd day with the 3rd day), so an entity or bucket in
 * one period only still gets a row, the other side empty (null). Each counter `c` gains `c_prev`.
 * Both streams come ordered by entity then date, so they are merge-joined: memory holds one row of each.
 */
import { type ReportMeta, type ReportRow, type RowPage, rowsOf } from "../contract";
import type { ReportStream } from "../contract/report-stream";
import { type BucketUnit, bucketUnitOf } from "../core/calendar";
import { UnavailableError } from "../core/errors";
import type { TimeZone } from "../core/time-zone";
import { compareParts, entityIdKey, type OrderPart, orderPart } from "./row-order";

interface ComparedPeriods {
  /** The zone buckets are counted in (UTC without --tz). */
  zone: TimeZone;
  /** The first second of each period. */
  currentFrom: number;
  previousFrom: number;
  /** What meta says was compared: `previous` or `year`, and each period's range. */
  mode: string;
  currentRange: { from: string; to: string };
  previousRange: { from: string; to: string };
}

const BATCH = 1000;

/** `clicks` -> `clicks_prev` */
export function previousName(counter: string): string {
  return `${counter}_prev`;
}

interface Head {
  row: ReportRow;
  entity: OrderPart;
  position: number;
}

/** Positions of rows' buckets within one period. */
class Positions {
  private readonly first: number;
  constructor(
    private readonly zone: TimeZone,
    private readonly unit: BucketUnit | undefined,
    from: number,
  ) {
    this.first = unit === undefined ? 0 : zone.bucketStart(unit, from);
  }

  of(row: ReportRow): number {
    if (this.unit === undefined) return 0;
    const date = row.dimensions.date;
    if (typeof date !== "number" || !Number.isFinite(date)) {
      throw new UnavailableError(
        "the service sent a row whose date is not epoch seconds, so the periods cannot be matched by position",
      );
    }
    return this.zone.bucketsBetween(this.unit, this.first, date);
  }

  /** The bucket start at a position, for a row the other period alone has. */
  dateAt(position: number): number {
    return this.unit === undefined ? 0 : this.zone.bucketAfter(this.unit, this.first, position);
  }
}

function unitOf(meta: ReportMeta): BucketUnit | undefined {
  if (!meta.dimensions.includes("date")) return undefined;
  const unit = bucketUnitOf(meta.granularity);
  if (unit === undefined) {
    throw new UnavailableError(
      `the service's granularity ${JSON.stringify(meta.granularity.slice(0, 40))} is not hour, day, week or month, so the periods cannot be matched by position`,
    );
  }
  return unit;
}

function outOfOrder(): UnavailableError {
  return new UnavailableError(
    "the service's rows are not in entity-then-date order, so the periods cannot be compared",
  );
}

async function* rowsInOrder(
  pages: AsyncIterable<RowPage>,
  idKey: string | undefined,
  positions: Positions,
): AsyncGenerator<Head> {
  let last: Head | undefined;
  for await (const row of rowsOf(pages)) {
    const head = { row, entity: orderPart(row, idKey), position: positions.of(row) };
    if (last && (compareParts(head.entity, last.entity) || head.position - last.position) <= 0) throw outOfOrder();
    last = head;
    yield head;
  }
}

export function compareWithPrevious(
  current: ReportStream,
  previous: ReportStream,
  periods: ComparedPeriods,
): ReportStream {
  const counters = [...current.meta.metrics];
  const idKey = entityIdKey(current.meta);
  const unit = unitOf(current.meta);
  const currentPositions = new Positions(periods.zone, unit, periods.currentFrom);
  const previousPositions = new Positions(periods.zone, unit, periods.previousFrom);
  const byDate = unit !== undefined;

  function paired(now: Head | undefined, before: Head | undefined): ReportRow {
    const base = (now ?? before) as Head;
    const dimensions = now
      ? now.row.dimensions
      : byDate
        ? { ...base.row.dimensions, date: currentPositions.dateAt(base.position) }
        : base.row.dimensions;
    const metrics: Record<string, number | null> = {};
    for (const counter of counters) {
      metrics[counter] = now ? (now.row.metrics[counter] ?? null) : null;
      metrics[previousName(counter)] = before ? (before.row.metrics[counter] ?? null) : null;
    }
    return { ...base.row, dimensions, metrics };
  }

  async function* pages(): AsyncGenerator<RowPage> {
    const a = rowsInOrder(current.pages, idKey, currentPositions);
    const b = rowsInOrder(previous.pages, idKey, previousPositions);
    try {
      let now = await a.next();
      let before = await b.next();
      let batch: ReportRow[] = [];
      while (!now.done || !before.done) {
        // Which side's head comes first in (entity, position) order; equal heads are a pair.
        const order = now.done
          ? 1
          : before.done
            ? -1
            : compareParts(now.value.entity, before.value.entity) || now.value.position - before.value.position;
        if (order <= 0 && !now.done) {
          const pair = order === 0 && !before.done ? before.value : undefined;
          batch.push(paired(now.value, pair));
          [now, before] = await Promise.all([a.next(), pair ? b.next() : before]);
        } else if (!before.done) {
          batch.push(paired(undefined, before.value));
          before = await b.next();
        }
        if (batch.length >= BATCH) {
          yield { rows: batch };
          batch = [];
        }
      }
      if (batch.length > 0) yield { rows: batch };
    } finally {
      await Promise.all([a.return(undefined), b.return(undefined)]);
    }
  }

  return {
    meta: {
      ...current.meta,
      metrics: counters.flatMap((c) => [c, previousName(c)]),
      total: 0,
      compare: periods.mode,
      current: periods.currentRange,
      previous: periods.previousRange,
    },
    totalKnown: false,
    pages: pages(),
  };
}
