/**
 * A DuckDB file read (or changed) by a connection of the test's own, as a user's duckdb shell would: the
 * second connection that checks what adreport wrote. Values come as DuckDB's driver gives them (BIGINT as
 * bigint); a test casts in SQL what it compares as text.
 */
import { DuckDBInstance } from "@duckdb/node-api";

async function withConnection<T>(
  path: string,
  mode: "read" | "write",
  work: (connection: Awaited<ReturnType<DuckDBInstance["connect"]>>) => Promise<T>,
): Promise<T> {
  const instance = await DuckDBInstance.create(path, mode === "read" ? { access_mode: "READ_ONLY" } : {});
  const connection = await instance.connect();
  try {
    return await work(connection);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** The rows of a query, each an array in the SELECT's order. */
export function duckdbRows(path: string, sql: string): Promise<unknown[][]> {
  return withConnection(path, "read", async (c) => (await c.runAndReadAll(sql)).getRows() as unknown[][]);
}

/** Statements run in a read-write connection (a table made by hand, a day deleted). */
export function duckdbExec(path: string, ...statements: string[]): Promise<void> {
  return withConnection(path, "write", async (c) => {
    for (const sql of statements) await c.run(sql);
  });
}

/** RFC 4180 CSV (quoted fields may hold commas, quotes and line breaks) as rows of cells. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(cell);
      cell = "";
    } else if (ch === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
    } else if (ch !== "\r" || text[i + 1] !== "\n") cell += ch;
  }
  if (cell !== "" || row.length > 0) rows.push([...row, cell]);
  return rows;
}

/** A decimal text (`12.25`, `-0.000001`) in integer micros, exactly (no float on the way). */
export function micros(text: string): bigint {
  const match = /^(-?)(\d+)(?:\.(\d{1,6}))?$/.exec(text);
  if (match === null) throw new Error(`not a decimal of at most 6 places: ${text}`);
  const [, sign, whole, fraction = ""] = match;
  const value = BigInt(whole as string) * 1_000_000n + BigInt(fraction.padEnd(6, "0"));
  return sign === "-" ? -value : value;
}
