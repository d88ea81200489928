/**
 * The SQL type of each column adreport makes, per database, and which declared types can hold what
 * adreport writes into a column of that use (a table made by hand, or by an earlier adreport).
 */
import type { ColumnKind } from "./columns";

export type Dialect = "sqlite" | "postgres";

/** A column's use: the layout's kinds, plus `label` (profile, query_scope, run_id) and `stamp` (exported_at). */
export type ColumnUse = ColumnKind | "label" | "stamp";

const SQLITE_TYPES: Record<ColumnUse, string> = {
  id: "INTEGER",
  text: "TEXT",
  date: "TEXT",
  count: "INTEGER",
  money: "NUMERIC",
  label: "TEXT",
  stamp: "TEXT",
};

/** The type adreport gives a new column of that use. */
export function columnType(dialect: Dialect, use: ColumnUse, hourly: boolean): string {
  if (dialect === "sqlite") return SQLITE_TYPES[use];
  switch (use) {
    case "id":
    case "count":
      return "BIGINT";
    case "money":
      return "NUMERIC(20,6)";
    case "date":
      return hourly ? "TIMESTAMPTZ" : "DATE";
    case "stamp":
      return "TIMESTAMPTZ";
    case "text":
    case "label":
      return "TEXT";
  }
}

/** SQLite's column affinity of a declared type (https://sqlite.org/datatype3.html §3.1). */
function affinity(declared: string): "INTEGER" | "TEXT" | "BLOB" | "REAL" | "NUMERIC" {
  const type = declared.toUpperCase();
  if (type.includes("INT")) return "INTEGER";
  if (/CHAR|CLOB|TEXT/.test(type)) return "TEXT";
  if (type.includes("BLOB") || type.trim() === "") return "BLOB";
  if (/REAL|FLOA|DOUB/.test(type)) return "REAL";
  return "NUMERIC";
}

/**
 * SQLite keeps a value as it comes in a column of no affinity (BLOB or no type); a TEXT column turns numbers
 * into text, and an INTEGER, REAL or NUMERIC one turns a text that reads as a number (a name "2024") into one.
 */
function sqliteHolds(use: ColumnUse, declared: string): boolean {
  const found = affinity(declared);
  if (found === "BLOB") return true;
  switch (use) {
    case "id":
    case "count":
    case "money":
      return found !== "TEXT";
    case "text":
    case "label":
      return found === "TEXT";
    case "date":
    case "stamp":
      // DATE and DATETIME have NUMERIC affinity, which keeps an ISO 8601 text as text.
      return found === "TEXT" || found === "NUMERIC";
  }
}

/** `numeric`, or `numeric(p,s)`: its scale; undefined for another type. */
function numericScale(type: string): number | undefined {
  if (type === "numeric") return Number.POSITIVE_INFINITY;
  const match = /^numeric\(\d+,(\d+)\)$/.exec(type);
  return match ? Number(match[1]) : undefined;
}

/** PostgreSQL's format_type() of the column: narrower integers, fewer decimals or a bounded text are refused. */
function postgresHolds(use: ColumnUse, type: string, hourly: boolean): boolean {
  const scale = numericScale(type);
  switch (use) {
    case "id":
    case "count":
      return type === "bigint" || type === "double precision" || scale === 0 || scale === Number.POSITIVE_INFINITY;
    case "money":
      return type === "double precision" || (scale !== undefined && scale >= 6);
    case "text":
    case "label":
      return type === "text" || type === "character varying";
    case "date":
      return type === "timestamp with time zone" || (!hourly && type === "date");
    case "stamp":
      return type === "timestamp with time zone" || type === "timestamp without time zone" || type === "text";
  }
}

export function typeHolds(dialect: Dialect, use: ColumnUse, declared: string, hourly: boolean): boolean {
  if (dialect === "sqlite") return sqliteHolds(use, declared);
  const type = declared.toLowerCase().replace(/^timestamptz$/, "timestamp with time zone");
  return postgresHolds(use, type, hourly);
}

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
