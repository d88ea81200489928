/**
 * The table of a database target: one column per dimension key, one per metric, then `profile`,
 * `query_scope` (granularity and filters: a run replaces only rows of its own kind), `exported_at` and
 * `run_id` (targets/table/shape.ts).
 * Values of a row in that column order.
 */

import { DIMENSION_KEYS, type Dimension, isDimension, type ReportRequest, type ReportRow } from "../../contract";
import { bucketUnitOf, formatDate, formatDateTime } from "../../core/calendar";
import { metricKind } from "../../core/metric-kind";

export type ColumnKind = "id" | "text" | "date" | "count" | "money";

export interface TableColumn {
  name: string;
  kind: ColumnKind;
}

export interface TableLayout {
  columns: TableColumn[];
  hourly: boolean;
  /** What rows a run owns besides their days: the profile and the query's granularity and filters. */
  profile: string;
  scope: string;
  /** The values of a row, the data columns only (profile, scope and exported_at are added by the engine). */
  values(row: ReportRow): Array<string | number | null>;
}

function kindOf(key: string): ColumnKind {
  if (key === "date") return "date";
  if (key.endsWith("_id")) return "id";
  return "text";
}

export function tableLayout(request: ReportRequest, profile: string): TableLayout {
  const keys: string[] = [];
  const dims = request.dimensions.filter(isDimension) as Dimension[];
  for (const dim of [...dims.filter((d) => d !== "date"), ...dims.filter((d) => d === "date")]) {
    for (const key of DIMENSION_KEYS[dim]) if (!keys.includes(key)) keys.push(key);
  }
  const columns: TableColumn[] = [
    ...keys.map((name) => ({ name, kind: kindOf(name) })),
    ...request.metrics.map((name) => ({
      name,
      kind: (metricKind(name) === "money" ? "money" : "count") as ColumnKind,
    })),
  ];
  const word = request.granularity ?? "day";
  const granularity = bucketUnitOf(word) ?? word.toLowerCase();
  const hourly = granularity === "hour";
  const scope = [
    `granularity=${granularity}`,
    ...(request.campaignId !== undefined ? [`campaign_id=${request.campaignId}`] : []),
    ...(request.adId !== undefined ? [`ad_id=${request.adId}`] : []),
  ].join("&");
  const cell = (value: unknown): string | number | null => {
    if (value === undefined || value === null) return null;
    if (typeof value === "number") return Number.isFinite(value) ? value : null;
    return String(value);
  };
  // Every entity's rows repeat the same buckets: their texts are made once (as in format/columns.ts).
  const dateTexts = new Map<number, string>();
  const dateCell = (value: unknown): string | number | null => {
    if (typeof value !== "number" || !Number.isFinite(value)) return value === undefined ? null : String(value);
    let text = dateTexts.get(value);
    if (text === undefined) {
      if (dateTexts.size >= 10_000) dateTexts.clear();
      text = hourly ? formatDateTime(value) : formatDate(value);
      dateTexts.set(value, text);
    }
    return text;
  };
  // One reader per column, decided once: a row's values are read without deciding again for each row.
  const readers = columns.map((column): ((row: ReportRow) => string | number | null) => {
    const key = column.name;
    if (column.kind === "count" || column.kind === "money") return (row) => cell(row.metrics[key]);
    if (column.kind === "date") return (row) => dateCell(row.dimensions[key]);
    return (row) => cell(row.dimensions[key]);
  });
  const values = (row: ReportRow) => {
    const out: Array<string | number | null> = new Array(readers.length);
    for (let i = 0; i < readers.length; i += 1)
      out[i] = (readers[i] as (row: ReportRow) => string | number | null)(row);
    return out;
  };
  return { columns, hourly, profile, scope, values };
}

export function quoteName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
