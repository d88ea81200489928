/** Which declared column types hold what adreport writes, in SQLite (by affinity) and in PostgreSQL. */
import { describe, expect, it } from "vitest";
import { postgresDialect } from "../../../../src/targets/postgres/dialect";
import { sqliteDialect } from "../../../../src/targets/sqlite/dialect";
import type { ColumnUse } from "../../../../src/targets/table/column-types";

const DIALECTS = { sqlite: sqliteDialect, postgres: postgresDialect };
const columnType = (dialect: keyof typeof DIALECTS, use: ColumnUse, hourly: boolean) =>
  DIALECTS[dialect].columnType(use, hourly);
const typeHolds = (dialect: keyof typeof DIALECTS, use: ColumnUse, declared: string, hourly: boolean) =>
  DIALECTS[dialect].holds(use, declared, hourly);

const USES: ColumnUse[] = ["id", "text", "date", "count", "money", "label", "stamp"];

describe("the types adreport makes", () => {
  it.for([false, true])("hold their own values (hourly %s)", (hourly) => {
    for (const dialect of ["sqlite", "postgres"] as const) {
      for (const use of USES) expect(typeHolds(dialect, use, columnType(dialect, use, hourly), hourly)).toBe(true);
    }
  });
});

describe("SQLite, by affinity", () => {
  it.for([
    ["count", "TEXT", false],
    ["count", "VARCHAR(10)", false],
    ["count", "BIGINT", true],
    ["count", "REAL", true],
    ["count", "", true],
    ["money", "INTEGER", true],
    ["money", "DECIMAL(20,6)", true],
    ["money", "TEXT", false],
    ["date", "INTEGER", false],
    ["date", "REAL", false],
    ["date", "DATE", true],
    ["date", "DATETIME", true],
    ["text", "INTEGER", false],
    ["text", "NUMERIC", false],
    ["text", "NVARCHAR(200)", true],
    ["label", "BLOB", true],
    ["id", "TEXT", false],
  ] as const)("%s in %j: %s", ([use, declared, holds]) => {
    expect(typeHolds("sqlite", use, declared, false)).toBe(holds);
  });
});

describe("PostgreSQL, by format_type()", () => {
  it.for([
    ["count", "integer", false, false],
    ["count", "bigint", false, true],
    ["count", "numeric", false, true],
    ["count", "numeric(20,6)", false, false],
    ["count", "text", false, false],
    ["id", "numeric(19,0)", false, true],
    ["money", "numeric(20,2)", false, false],
    ["money", "numeric(30,8)", false, true],
    ["money", "double precision", false, true],
    ["money", "real", false, false],
    ["date", "date", true, false],
    ["date", "date", false, true],
    ["date", "timestamp with time zone", true, true],
    ["date", "timestamp without time zone", true, false],
    ["date", "text", false, false],
    ["text", "character varying(50)", false, false],
    ["text", "character varying", false, true],
    ["stamp", "timestamp without time zone", false, true],
  ] as const)("%s in %j (hourly %s): %s", ([use, declared, hourly, holds]) => {
    expect(typeHolds("postgres", use, declared, hourly)).toBe(holds);
  });
});
