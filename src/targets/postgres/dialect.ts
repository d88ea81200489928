/** PostgreSQL's column types (by format_type()), verify's sums and the hint that frees a name: targets/table/column-types.ts. */
import type { ColumnUse, TableDialect } from "../table/column-types";

function columnType(use: ColumnUse, hourly: boolean): string {
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

export const postgresDialect: TableDialect = {
  columnType,
  holds: (use, declared, hourly) =>
    postgresHolds(use, declared.toLowerCase().replace(/^timestamptz$/, "timestamp with time zone"), hourly),
  sum: (name, money) =>
    money ? `coalesce(sum(round(${name}::numeric * 1000000)), 0)::text` : `coalesce(sum(${name}), 0)::text`,
  freeName: (what, table, old) => `, or rename it: ALTER ${what} ${table} RENAME TO ${old}`,
};
