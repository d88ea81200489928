/** SQLite's column types (by affinity), verify's sums and the hint that frees a name: targets/table/column-types.ts. */
import type { ColumnUse, TableDialect } from "../table/column-types";

const SQLITE_TYPES: Record<ColumnUse, string> = {
  id: "INTEGER",
  text: "TEXT",
  date: "TEXT",
  count: "INTEGER",
  money: "NUMERIC",
  label: "TEXT",
  stamp: "TEXT",
};

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

export const sqliteDialect: TableDialect = {
  columnType: (use) => SQLITE_TYPES[use],
  holds: (use, declared) => sqliteHolds(use, declared),
  sum: (name, money) =>
    money ? `coalesce(sum(CAST(round(${name} * 1000000) AS INTEGER)), 0)` : `coalesce(sum(${name}), 0)`,
  // SQLite renames neither an index nor a view: it is dropped (and made again under another name, if wanted).
  freeName: (what, table) => `, or drop it (and make it again under another name): DROP ${what} ${table}`,
};
