/** The columns of CSV and table output (docs/service.md §9): dimension keys in `meta.dimensions` order, then metrics. */
import { DIMENSION_KEYS, isDimension, type ReportMeta, type ReportRow, type RowPage } from "../contract";
import { bucketDateText, bucketUnitOf } from "../core/calendar";
import { TimeZone } from "../core/time-zone";

export interface Columns {
  dimensionKeys: string[];
  metrics: string[];
  /** Every column in output order: dimension keys then metrics, or as --fields interleaved them. */
  order: Array<{ name: string; metric: boolean }>;
  /** The zone `date` is shown in (meta.tz, from --tz); UTC when absent. */
  zone?: TimeZone | undefined;
}

/**
 * Known dimensions give their documented keys; keys a service sends beyond those (seen in the first row)
 * are kept too, after them, so nothing it sends is dropped.
 */
export function columnsOf(
  meta: ReportMeta,
  firstRow: ReportRow | undefined,
  fields?: readonly string[] | undefined,
): Columns {
  if (fields !== undefined) {
    const order = fields.map((name) => ({ name, metric: meta.metrics.includes(name) }));
    return {
      dimensionKeys: order.filter((c) => !c.metric).map((c) => c.name),
      metrics: order.filter((c) => c.metric).map((c) => c.name),
      order,
      zone: zoneOf(meta),
    };
  }
  const keys: string[] = [];
  const add = (key: string) => {
    if (!keys.includes(key)) keys.push(key);
  };
  const entities = meta.dimensions.filter((d) => d !== "date");
  for (const dimension of [...entities, ...meta.dimensions.filter((d) => d === "date")]) {
    for (const key of isDimension(dimension) ? DIMENSION_KEYS[dimension] : [dimension]) add(key);
  }
  for (const key of Object.keys(firstRow?.dimensions ?? {})) if (key !== "date") add(key);
  if (keys.includes("date")) keys.push(keys.splice(keys.indexOf("date"), 1)[0] as string);
  const order = [
    ...keys.map((name) => ({ name, metric: false })),
    ...meta.metrics.map((name) => ({ name, metric: true })),
  ];
  return { dimensionKeys: keys, metrics: [...meta.metrics], order, zone: zoneOf(meta) };
}

/** The zone adreport's --tz stage wrote into meta; a name this system does not know is shown as UTC. */
function zoneOf(meta: ReportMeta): TimeZone | undefined {
  if (typeof meta.tz !== "string") return undefined;
  try {
    return TimeZone.open(meta.tz);
  } catch {
    return undefined;
  }
}

/**
 * Bucket texts already made. Every entity's rows repeat the same few hundred buckets, so making the text
 * anew for each row would cost a share of an hourly export's time and garbage (bench/README.md).
 */
const hourTexts = new Map<number, string>();
const dayTexts = new Map<number, string>();
const MAX_BUCKET_TEXTS = 10_000;

function bucketText(value: number, hourly: boolean): string {
  const texts = hourly ? hourTexts : dayTexts;
  let text = texts.get(value);
  if (text === undefined) {
    if (texts.size >= MAX_BUCKET_TEXTS) texts.clear();
    text = bucketDateText(value, hourly);
    texts.set(value, text);
  }
  return text;
}

/**
 * A bucket start as ISO 8601 UTC: a date for daily and longer buckets, a date-time for hours. In a zone
 * (--tz), the local date, or the local date-time with the zone's offset.
 */
function formatBucket(value: unknown, granularity: string, zone: TimeZone | undefined): string {
  if (typeof value !== "number" || !Number.isFinite(value))
    return value === undefined || value === null ? "" : String(value);
  const hourly = bucketUnitOf(granularity) === "hour";
  return zone !== undefined ? zone.bucketText(value, hourly) : bucketText(value, hourly);
}

/**
 * `date` as the text formats write it for a report in a zone (meta.tz, from --tz), or undefined without
 * one: for rows that leave their report's meta behind (several accounts in one output, each in its zone).
 */
export function zonedDateText(meta: ReportMeta): ((value: unknown) => string) | undefined {
  const zone = zoneOf(meta);
  return zone && ((value) => formatBucket(value, meta.granularity, zone));
}

/** The cells of one row in column order; undefined where the row has no such key or a metric has no value. */
export function cellsOf(row: ReportRow, columns: Columns, granularity: string): Array<string | number | undefined> {
  const cells: Array<string | number | undefined> = [];
  for (const { name, metric } of columns.order) {
    if (metric) {
      cells.push(row.metrics[name] ?? undefined);
      continue;
    }
    const value = row.dimensions[name];
    cells.push(name === "date" ? formatBucket(value, granularity, columns.zone) : (value ?? undefined));
  }
  return cells;
}

/** Pulls the first page so columns can be known before anything is written; the rest follow it. */
export async function peekFirstRow(
  pages: AsyncIterable<RowPage>,
): Promise<{ first: ReportRow | undefined; all: AsyncIterable<RowPage> }> {
  const iterator = pages[Symbol.asyncIterator]();
  const head = await iterator.next();
  const all: AsyncIterable<RowPage> = {
    async *[Symbol.asyncIterator]() {
      if (head.done) return;
      yield head.value;
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        yield next.value;
      }
    },
  };
  return { first: head.done ? undefined : head.value.rows[0], all };
}
