/**
 * `spending` (integer millionths) as the JSON number a row carries, on both databases: no binary rounding,
 * no trailing zeros, whole amounts without a point; from an hour's bigint and from a sum (numeric on
 * PostgreSQL) alike.
 */
import Database from "better-sqlite3";
import { beforeEach, describe, expect, it } from "vitest";
import { POSTGRES_DIALECT, SQLITE_DIALECT } from "../../src/server/sql/dialect";
import { testBackends } from "../helpers/backends";

/** Millionths as SQL literals (the last is past JavaScript's exact integers), and their JSON. */
const CASES: Array<[string, string]> = [
  ["0", "0"],
  ["1", "0.000001"],
  ["78805", "0.078805"],
  ["999999", "0.999999"],
  ["1000000", "1"],
  ["1000001", "1.000001"],
  ["3250000", "3.25"],
  ["12000000", "12"],
  ["123456789012", "123456.789012"],
  ["9007199254740993", "9007199254.740993"],
];

describe.each(await testBackends())("spending on $name", (backend) => {
  beforeEach((context) => backend.skipUnavailable(context));

  it("is the exact decimal of the millionths, from a value and from a sum", async () => {
    for (const [micros, text] of CASES) {
      if (backend.name === "sqlite") {
        const db = new Database(":memory:");
        const value = db
          .prepare(
            `SELECT ${SQLITE_DIALECT.spendingText} FROM (SELECT sum(x) AS spending FROM (SELECT ${micros} AS x))`,
          )
          .pluck()
          .get();
        db.close();
        expect(String(value), micros).toBe(text);
        continue;
      }
      const sql = backend.admin();
      for (const source of [`SELECT ${micros}::bigint AS spending`, `SELECT sum(${micros}::bigint) AS spending`]) {
        const result = (await sql(`SELECT ${POSTGRES_DIALECT.spendingText} AS t FROM (${source}) s`)) as {
          rows: Array<{ t: string }>;
        };
        expect(result.rows[0]?.t, source).toBe(text);
      }
    }
  });
});
