/**
 * Parquet files read back by a reader we did not write: DuckDB (@duckdb/node-api, `read_parquet`). A file it
 * cannot read fails the test that asked. Also: CSV cells in the same terms, to compare value by value.
 */
import { DuckDBInstance, type DuckDBValue } from "@duckdb/node-api";
import { parse } from "csv-parse/sync";

let instance: Promise<DuckDBInstance> | undefined;

/** Rows of a query, as DuckDB's JavaScript values (BIGINT as bigint, VARCHAR as string, NULL as null). */
export async function duckdb(sql: string): Promise<Array<Record<string, DuckDBValue>>> {
  instance ??= DuckDBInstance.create(":memory:");
  const connection = await (await instance).connect();
  try {
    return (await connection.runAndReadAll(sql)).getRowObjects();
  } finally {
    connection.closeSync();
  }
}

export const sqlText = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** `read_parquet(...)` of one file or a glob, its rows in the file's order. */
export const parquetOf = (path: string) => `read_parquet(${sqlText(path)}, file_row_number = true)`;

/** Each column's DuckDB type, by name. */
export async function columnTypes(path: string): Promise<Record<string, string>> {
  const rows = await duckdb(`DESCRIBE SELECT * EXCLUDE (file_row_number) FROM ${parquetOf(path)}`);
  return Object.fromEntries(rows.map((r) => [String(r.column_name), String(r.column_type)]));
}

/** Every value as text a CSV cell can be compared with: dates, timestamps (UTC), decimals as DuckDB spells them. */
export async function parquetRows(path: string): Promise<Array<Record<string, string | null>>> {
  const types = await columnTypes(path);
  const select = Object.entries(types).map(([name, type]) => {
    const column = `"${name.replaceAll('"', '""')}"`;
    if (type.startsWith("TIMESTAMP")) return `CAST(epoch_us(${column}) AS VARCHAR) AS ${column}`;
    if (type === "DOUBLE") return column;
    return `CAST(${column} AS VARCHAR) AS ${column}`;
  });
  const rows = await duckdb(`SELECT ${select.join(", ")} FROM ${parquetOf(path)} ORDER BY file_row_number`);
  return rows.map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([key, value]) => [
        key,
        value === null ? null : typeof value === "number" ? String(value) : String(value),
      ]),
    ),
  );
}

export function csvRows(text: string): Array<Record<string, string>> {
  return parse(text, { columns: true, bom: true }) as Array<Record<string, string>>;
}

/** A decimal's text (`3.25`, `-0.000001`, `1e-7`) in integer micros, exactly, rounded half away from zero. */
export function micros(text: string): bigint {
  const value = Number(text);
  if (!/^-?\d+(\.\d+)?$/.test(text)) return BigInt(Math.round(value * 1e6));
  const negative = text.startsWith("-");
  const [whole = "0", fraction = ""] = text.replace("-", "").split(".");
  const digits = BigInt(whole + fraction.padEnd(7, "0").slice(0, 7));
  const rounded = (digits + 5n) / 10n;
  return negative ? -rounded : rounded;
}
