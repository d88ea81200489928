/**
 * The typed columns of a Parquet export (docs/topics/formats.md): what each of CSV's columns (format/columns.ts)
 * becomes, its Parquet schema element, and a row's value in the form hyparquet-writer takes. Every column is
 * OPTIONAL: a value the service did not send is NULL, where CSV has an empty cell.
 */
import type { ParquetWriter } from "hyparquet-writer";
import { spendingMicros } from "../contract/fields";
import { SECONDS_PER_DAY } from "../core/calendar";
import { CHANGE_SUFFIX, isDerivedMetric, PREVIOUS_SUFFIX } from "../core/derived-metrics";
import { UnavailableError } from "../core/errors";
import type { TimeZone } from "../core/time-zone";

/** The writer's schema element (hyparquet-writer carries its own copy of hyparquet's types). */
export type SchemaElement = ConstructorParameters<typeof ParquetWriter>[0]["schema"][number];

export type ColumnKind = "day" | "hour" | "id" | "text" | "count" | "money" | "ratio";

/** DECIMAL(18,6): the 6 decimals the service keeps spending in (millionths), as an INT64, 18 digits in all. */
export const MONEY_PRECISION = 18;
export const MONEY_SCALE = 6;

const ID_KEYS = new Set(["campaign_id", "ad_id", "keyword_id"]);
const COUNTERS = new Set(["views", "clicks", "conversions"]);
const MONEY = "spending";

/** A dimension key's kind: the bucket by its granularity, the ids, and text for names and keys we do not know. */
export function dimensionKind(key: string, hourly: boolean): ColumnKind {
  if (key === "date") return hourly ? "hour" : "day";
  return ID_KEYS.has(key) ? "id" : "text";
}

/** A metric's kind: the service's counters and spending (a compared period's too), doubles for everything else. */
export function metricKind(metric: string): ColumnKind {
  if (metric.endsWith(CHANGE_SUFFIX)) return "ratio";
  const base = metric.endsWith(PREVIOUS_SUFFIX) ? metric.slice(0, -PREVIOUS_SUFFIX.length) : metric;
  if (base === MONEY) return "money";
  if (COUNTERS.has(base) && !isDerivedMetric(base)) return "count";
  return "ratio";
}

/** The kinds written as INT64 (ids, counts, hours, spending's micros): BigInts as hyparquet-writer takes them. */
export function isInt64(kind: ColumnKind): boolean {
  return kind === "id" || kind === "count" || kind === "hour" || kind === "money";
}

const TWO_32 = 2 ** 32;
/** Where a 64-bit integer's low word is in a typed array: the platform's byte order. */
const LOW = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1 ? 0 : 1;

/**
 * A row group's INT64 values: when none is NULL, a BigInt64Array whose words are set from the numbers
 * directly (two's complement), so that no BigInt is made per value; else BigInts and NULLs.
 */
export function int64Column(values: readonly ColumnValue[]): BigInt64Array | Array<bigint | null> {
  if (values.includes(null)) return values.map((value) => (value === null ? null : BigInt(value as number)));
  const column = new BigInt64Array(values.length);
  const words = new Uint32Array(column.buffer);
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i] as number;
    const high = Math.floor(value / TWO_32);
    words[2 * i + LOW] = value - high * TWO_32;
    words[2 * i + 1 - LOW] = high >>> 0;
  }
  return column;
}

export function schemaElement(name: string, kind: ColumnKind): SchemaElement {
  const optional = { name, repetition_type: "OPTIONAL" } as const;
  switch (kind) {
    case "day":
      return { ...optional, type: "INT32", converted_type: "DATE", logical_type: { type: "DATE" } };
    case "hour":
      return {
        ...optional,
        type: "INT64",
        converted_type: "TIMESTAMP_MICROS",
        logical_type: { type: "TIMESTAMP", isAdjustedToUTC: true, unit: "MICROS" },
      };
    case "id":
    case "count":
      // A plain INT64 is a signed 64-bit integer; hyparquet-writer's INTEGER annotation is not one DuckDB reads.
      return { ...optional, type: "INT64" };
    case "money":
      return {
        ...optional,
        type: "INT64",
        converted_type: "DECIMAL",
        precision: MONEY_PRECISION,
        scale: MONEY_SCALE,
        logical_type: { type: "DECIMAL", precision: MONEY_PRECISION, scale: MONEY_SCALE },
      };
    case "text":
      return { ...optional, type: "BYTE_ARRAY", converted_type: "UTF8", logical_type: { type: "STRING" } };
    case "ratio":
      return { ...optional, type: "DOUBLE" };
  }
}

export type ColumnValue = number | string | null;

/** A value the column cannot hold: the service sent something its contract does not allow (exit 5). */
function refused(column: string, value: unknown, what: string): UnavailableError {
  const shown = JSON.stringify(value)?.slice(0, 40) ?? String(value);
  return new UnavailableError(`the service sent ${column} ${shown}, not ${what}, which the Parquet column needs`, {
    hint: "export this report as CSV or NDJSON (-f csv), which keep any value as it was sent",
  });
}

/**
 * A number past what a double holds exactly (a whole number past 2^53, spending's micros past it): JSON
 * parsing already changed its last digits, so what is shown is about it, and CSV would print the changed
 * number as if sent; only NDJSON copies the service's digits.
 */
function inexact(column: string, value: number, what: string): UnavailableError {
  const about = Number.isInteger(value) ? BigInt(value).toString() : String(value);
  const message = `the service sent ${column} ${what} (about ${about}): more digits than adreport reads exactly, and the Parquet column needs them all`;
  return new UnavailableError(message, {
    hint: "export this report as NDJSON (-f ndjson), which copies the service's numbers as they were sent",
  });
}

/** A whole number (or its digits) too large for a double to hold exactly. */
function pastSafe(value: unknown): number | undefined {
  const number = typeof value === "string" && EPOCH_TEXT.test(value) ? Number(value) : value;
  return typeof number === "number" && Number.isInteger(number) && !Number.isSafeInteger(number) ? number : undefined;
}

const DATE_TEXT = /^(\d{4})-(\d{2})-(\d{2})/;
const EPOCH_TEXT = /^-?\d+$/;

/** Epoch seconds of a bucket as the service sent it, or as --date-format epoch or a merged export wrote it. */
function epochSeconds(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value === "string" && EPOCH_TEXT.test(value)) return Number(value);
  return undefined;
}

/** Days since 1970-01-01 of a day bucket: its local date in a zone (--tz), as CSV shows it, else its UTC date. */
function dayNumber(value: unknown, zone: TimeZone | undefined): number | undefined {
  const sec = epochSeconds(value);
  if (sec !== undefined) return zone !== undefined ? zone.localDay(sec) : Math.floor(sec / SECONDS_PER_DAY);
  const text = typeof value === "string" ? DATE_TEXT.exec(value) : null;
  if (text === null) return undefined;
  const ms = Date.UTC(Number(text[1]), Number(text[2]) - 1, Number(text[3]));
  return Number.isFinite(ms) ? ms / (SECONDS_PER_DAY * 1000) : undefined;
}

/** Microseconds since the epoch (UTC) of an hour bucket: the instant, whatever zone its text was written in. */
function hourMicros(value: unknown): number | undefined {
  const sec = epochSeconds(value);
  if (sec !== undefined) return Math.round(sec * 1000) * 1000;
  if (typeof value !== "string") return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms * 1000 : undefined;
}

function wholeNumber(value: unknown): number | undefined {
  const whole = typeof value === "string" && EPOCH_TEXT.test(value) ? Number(value) : value;
  return typeof whole === "number" && Number.isSafeInteger(whole) ? whole : undefined;
}

/**
 * A dimension or metric value as the column of `kind` holds it until its row group is written; null for a
 * value that was not sent. The INT64 kinds are held as numbers, exact as safe integers, and become BigInts
 * only as their row group is written (int64Column): a BigInt a value held for a whole row group costs
 * memory and old-generation collections.
 */
export function columnValue(kind: ColumnKind, column: string, value: unknown, zone: TimeZone | undefined): ColumnValue {
  if (value === undefined || value === null) return null;
  switch (kind) {
    case "day": {
      const day = dayNumber(value, zone);
      if (day === undefined) throw refused(column, value, "a date");
      return day;
    }
    case "hour": {
      const micros = hourMicros(value);
      if (micros === undefined || !Number.isSafeInteger(micros)) throw refused(column, value, "a date and time");
      return micros;
    }
    case "id":
    case "count": {
      const whole = wholeNumber(value);
      const past = pastSafe(value);
      if (past !== undefined) throw inexact(column, past, "past 2^53");
      if (whole === undefined) throw refused(column, value, "a whole number");
      return whole;
    }
    case "money": {
      if (typeof value !== "number" || !Number.isFinite(value)) throw refused(column, value, "a number");
      // The ledger's micros (a double's): exact below 2^53 micros, 9 billion, far within DECIMAL(18,6).
      const micros = spendingMicros(value);
      if (!Number.isSafeInteger(micros)) throw inexact(column, value, "of 9 billion or more");
      return micros;
    }
    case "text":
      return typeof value === "string" ? value : typeof value === "number" ? String(value) : JSON.stringify(value);
    case "ratio":
      if (typeof value !== "number") throw refused(column, value, "a number");
      return value;
  }
}
