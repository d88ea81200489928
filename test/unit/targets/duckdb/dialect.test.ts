/**
 * DuckDB's column types: what adreport makes (BIGINT, DECIMAL(20,6), DATE or TIMESTAMP, VARCHAR) and which
 * types of a table made by hand hold its values, by the names duckdb_columns() gives them; and DuckDB's
 * failures said in adreport's words, never its own text.
 */
import { describe, expect, it } from "vitest";
import { duckdbDialect } from "../../../../src/targets/duckdb/dialect";
import { DuckdbRefusal, duckdbWords } from "../../../../src/targets/duckdb/failure";
import type { ColumnUse } from "../../../../src/targets/table/column-types";

const USES: ColumnUse[] = ["id", "text", "date", "count", "money", "label", "stamp"];

describe("DuckDB's column types", () => {
  it("are the issue's: BIGINT ids and counts, DECIMAL(20,6) spending, DATE or TIMESTAMP, VARCHAR", () => {
    expect(USES.map((use) => duckdbDialect.columnType(use, false))).toEqual([
      "BIGINT",
      "VARCHAR",
      "DATE",
      "BIGINT",
      "DECIMAL(20,6)",
      "VARCHAR",
      "TIMESTAMP",
    ]);
    expect(duckdbDialect.columnType("date", true)).toBe("TIMESTAMP");
  });

  it.for([false, true])("hold their own values (hourly %s)", (hourly) => {
    for (const use of USES) expect(duckdbDialect.holds(use, duckdbDialect.columnType(use, hourly), hourly)).toBe(true);
  });

  it.for([
    ["count", "INTEGER", false, false],
    ["count", "HUGEINT", false, true],
    ["count", "DOUBLE", false, true],
    ["count", "DECIMAL(18,0)", false, true],
    ["count", "DECIMAL(10,0)", false, false],
    ["money", "DECIMAL(18,2)", false, false],
    ["money", "DECIMAL(38,10)", false, true],
    ["money", "FLOAT", false, false],
    ["money", "DOUBLE", false, true],
    ["date", "DATE", true, false],
    ["date", "VARCHAR", false, false],
    ["date", "TIMESTAMP", false, true],
    ["text", "INTEGER", false, false],
    ["stamp", "TIMESTAMP WITH TIME ZONE", false, true],
    ["id", "VARCHAR", false, false],
  ] as const)("%s in %s (hourly %s): %s", ([use, declared, hourly, holds]) => {
    expect(duckdbDialect.holds(use, declared, hourly)).toBe(holds);
  });
});

describe("DuckDB's failures in adreport's words", () => {
  it.for([
    [
      'IO Error: Could not set lock on file "/w/ads.duckdb": Conflicting lock is held in /usr/bin/node (PID 4242). See also https://duckdb.org/docs/stable/connect/concurrency',
      /^another process \(PID 4242\) has the file open/,
    ],
    [
      'IO Error: The file "/w/x" exists, but it is not a valid DuckDB database file!',
      /^it is not a DuckDB database file/,
    ],
    [
      'IO Error: Could not read enough bytes from file "/w/x": attempted to read 4096 bytes from location 4096',
      /^it is damaged/,
    ],
    ['IO Error: Cannot open file "/ro/x.duckdb": Permission denied', /^permission denied$/],
    ["Catalog Error: Table with name t does not exist!", /^Table with name t does not exist!$/],
  ] as const)("%s", ([message, reason]) => {
    const words = duckdbWords(new Error(message));
    expect(words.reason).toMatch(reason);
    expect(`${words.reason} ${words.hint ?? ""}`).not.toMatch(/duckdb\.org|IO Error/);
  });

  it("a refusal of adreport's own is said as it is", () => {
    expect(duckdbWords(new DuckdbRefusal("no such folder", "create it first: mkdir -p d"))).toEqual({
      reason: "no such folder",
      hint: "create it first: mkdir -p d",
    });
  });
});
