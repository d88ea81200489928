/**
 * One row into DuckDB's Appender: a writer per column of the table as it is (the Appender fills every
 * column, in the table's order), decided once. Numbers go in as doubles, which DuckDB casts to the column's
 * BIGINT or DECIMAL (exact for every whole number up to 2^53, and for every amount of 6 decimals below
 * 2^32); an amount above 2^32 as its text, the CSV export's (DuckDB's cast of such a double to a DECIMAL can
 * be a micro off; a text cast costs 7 s a million rows, so only those); dates as DuckDB's own values, made
 * once per day or hour.
 */
import type { DuckDBAppender } from "@duckdb/node-api";
import type { TableLayout } from "../table/columns";
import type { FoundColumn } from "../table/shape";
import type { DuckdbApi } from "./driver";

type Value = string | number | null;
type Writer = (appender: DuckDBAppender, row: ReadonlyArray<Value>) => void;

const DAY_MS = 86_400_000;

function valueWriter(at: number): Writer {
  return (appender, row) => {
    const value = row[at] ?? null;
    if (value === null) appender.appendNull();
    else if (typeof value === "number") appender.appendDouble(value);
    else appender.appendVarchar(value);
  };
}

const TWO_TO_32 = 4_294_967_296;

/** Spending: above 2^32, the shortest text of the double, which is the amount the service sent. */
function moneyWriter(at: number): Writer {
  return (appender, row) => {
    const value = row[at] ?? null;
    if (value === null) appender.appendNull();
    else if (typeof value === "string") appender.appendVarchar(value);
    else if (value < TWO_TO_32 && value > -TWO_TO_32) appender.appendDouble(value);
    else appender.appendVarchar(String(value));
  };
}

function textWriter(at: number): Writer {
  return (appender, row) => {
    const value = row[at] ?? null;
    if (value === null) appender.appendNull();
    else appender.appendVarchar(typeof value === "string" ? value : String(value));
  };
}

/** The date column: `2026-11-18` or `2026-11-18T05:00:00Z` as a DATE or a TIMESTAMP; a text DuckDB casts. */
function dateWriter(api: DuckdbApi, at: number, type: string): Writer {
  const asDate = type === "DATE";
  const made = new Map<string, ReturnType<typeof api.dateValue> | ReturnType<typeof api.timestampValue>>();
  return (appender, row) => {
    const value = row[at] ?? null;
    if (value === null) return appender.appendNull();
    const text = String(value);
    let found = made.get(text);
    if (found === undefined) {
      const ms = Date.parse(text);
      if (Number.isNaN(ms) || (type !== "DATE" && type !== "TIMESTAMP")) return appender.appendVarchar(text);
      if (made.size >= 10_000) made.clear();
      found = asDate ? api.dateValue(Math.floor(ms / DAY_MS)) : api.timestampValue(BigInt(ms) * 1000n);
      made.set(text, found);
    }
    if (asDate) appender.appendDate(found as ReturnType<typeof api.dateValue>);
    else appender.appendTimestamp(found as ReturnType<typeof api.timestampValue>);
  };
}

function constantWriter(text: string): Writer {
  return (appender) => appender.appendVarchar(text);
}

/** The writers of a table's columns; `tail`: profile, query_scope, exported_at and run_id by name. */
export function rowWriters(
  api: DuckdbApi,
  layout: TableLayout,
  columns: readonly FoundColumn[],
  tail: ReadonlyMap<string, string>,
  exportedAt: Date,
): Writer[] {
  const index = new Map(layout.columns.map((c, i) => [c.name, i]));
  return columns.map((column): Writer => {
    const at = index.get(column.name);
    if (at !== undefined) {
      const kind = layout.columns[at]?.kind;
      if (kind === "date") return dateWriter(api, at, column.type.toUpperCase());
      if (kind === "text") return textWriter(at);
      if (kind === "money") return moneyWriter(at);
      return valueWriter(at);
    }
    if (column.name === "exported_at" && column.type.toUpperCase() === "TIMESTAMP") {
      const stamp = api.timestampValue(BigInt(exportedAt.getTime()) * 1000n);
      return (appender) => appender.appendTimestamp(stamp);
    }
    const constant = tail.get(column.name);
    if (constant !== undefined) return constantWriter(constant);
    // A column adreport does not fill (one added by hand): its default, NULL unless it says otherwise.
    return (appender) => appender.appendDefault();
  });
}
