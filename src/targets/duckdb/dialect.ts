/** DuckDB's column types (as duckdb_columns() names them), verify's sums and the hint that frees a name: targets/table/column-types.ts. */
import type { ColumnUse, TableDialect } from "../table/column-types";

function columnType(use: ColumnUse, hourly: boolean): string {
  switch (use) {
    case "id":
    case "count":
      return "BIGINT";
    case "money":
      // As PostgreSQL's NUMERIC(20,6): every micro of any amount below 10^14, never a float.
      return "DECIMAL(20,6)";
    case "date":
      // UTC by convention: DuckDB's TIMESTAMPTZ needs the ICU extension to cast a text, which may not be there.
      return hourly ? "TIMESTAMP" : "DATE";
    case "stamp":
      return "TIMESTAMP";
    case "text":
    case "label":
      return "VARCHAR";
  }
}

/** `DECIMAL(p,s)`: its width and scale; undefined for another type. */
function decimal(type: string): { width: number; scale: number } | undefined {
  const match = /^DECIMAL\((\d+),(\d+)\)$/.exec(type);
  return match ? { width: Number(match[1]), scale: Number(match[2]) } : undefined;
}

const WHOLE = new Set(["BIGINT", "HUGEINT", "DOUBLE"]);
const TIMESTAMPS = new Set(["TIMESTAMP", "TIMESTAMP WITH TIME ZONE"]);

/** DuckDB's name of the column's type: narrower integers, fewer decimals or a float of 4 bytes are refused. */
function duckdbHolds(use: ColumnUse, type: string, hourly: boolean): boolean {
  const number = decimal(type);
  switch (use) {
    case "id":
    case "count":
      return WHOLE.has(type) || (number !== undefined && number.width - number.scale >= 18);
    case "money":
      return type === "DOUBLE" || (number !== undefined && number.scale >= 6);
    case "text":
    case "label":
      return type === "VARCHAR";
    case "date":
      return type === "TIMESTAMP" || (!hourly && type === "DATE");
    case "stamp":
      return TIMESTAMPS.has(type) || type === "VARCHAR";
  }
}

export const duckdbDialect: TableDialect = {
  columnType,
  holds: (use, declared, hourly) =>
    duckdbHolds(use, declared.toUpperCase().replace(/^TIMESTAMPTZ$/, "TIMESTAMP WITH TIME ZONE"), hourly),
  sum: (name, money) =>
    money
      ? `CAST(coalesce(sum(CAST(round(${name} * 1000000) AS HUGEINT)), 0) AS VARCHAR)`
      : `CAST(coalesce(sum(${name}), 0) AS VARCHAR)`,
  // DuckDB keeps tables and views in one namespace; its indexes are no table's name.
  freeName: (what, table, old) => `, or rename it: ALTER ${what} ${table} RENAME TO ${old}`,
};
