/**
 * What a column is for, and what a table kind's dialect says of it (targets/<kind>/dialect.ts): the SQL type
 * of each column adreport makes, which declared types can hold what adreport writes into a column of that
 * use (a table made by hand, or by an earlier adreport), a day's sum of a metric, and the hint that frees a
 * table's name.
 */
import type { ColumnKind } from "./columns";

export interface TableDialect {
  /** The type adreport gives a new column of that use. */
  columnType(use: ColumnUse, hourly: boolean): string;
  /** Whether a column declared `declared` (as the database reports it) holds what adreport writes for `use`. */
  holds(use: ColumnUse, declared: string, hourly: boolean): boolean;
  /** verify's SELECT of a day's sum of a metric column (`money`: in integer micros), read back as a number. */
  sum(quotedName: string, money: boolean): string;
  /** The hint's end that frees a table's name an index or a view holds (`, or rename it: ALTER ...`). */
  freeName(what: "INDEX" | "VIEW", quotedTable: string, quotedOld: string): string;
}

/** A column's use: the layout's kinds, plus `label` (profile, query_scope, run_id) and `stamp` (exported_at). */
export type ColumnUse = ColumnKind | "label" | "stamp";

const WHAT: Record<ColumnUse, string> = {
  id: "ids (whole numbers)",
  text: "names (any text)",
  date: "dates",
  count: "counts (whole numbers up to 2^53)",
  money: "spending (6 decimals)",
  label: "adreport's labels (any text)",
  stamp: "times",
};

/** What adreport writes into a column of that use, for a message. */
export function whatGoesIn(use: ColumnUse, hourly: boolean): string {
  return use === "date" && hourly ? "hours (date and time, UTC)" : WHAT[use];
}
