/**
 * What a DuckDB database holds under a name, in its default schema: DuckDB's names are without regard to
 * case (a table made "Ads" is found as ads), and tables and views share them.
 */
import type { FoundColumn } from "../table/shape";
import type { DuckdbConnection } from "./driver";

const inMain = (column: string) =>
  `database_name = current_database() AND schema_name = current_schema() AND lower(${column}) = lower($1)`;
const IN_MAIN = inMain("table_name");

async function rows(connection: DuckdbConnection, sql: string, values: string[]): Promise<unknown[][]> {
  return (await connection.runAndReadAll(sql, values)).getRows() as unknown[][];
}

/** The table's columns with their types, in order; undefined while there is no table (a view is none). */
export async function tableColumns(connection: DuckdbConnection, table: string): Promise<FoundColumn[] | undefined> {
  const found = await rows(connection, `SELECT 1 FROM duckdb_tables() WHERE ${IN_MAIN} AND NOT temporary`, [table]);
  if (found.length === 0) return undefined;
  const columns = await rows(
    connection,
    `SELECT column_name, data_type FROM duckdb_columns() WHERE ${IN_MAIN} ORDER BY column_index`,
    [table],
  );
  return columns.map(([name, type]) => ({ name: String(name), type: String(type) }));
}

/** A view of that name, where a new table would go. */
export async function viewNamed(connection: DuckdbConnection, table: string): Promise<boolean> {
  return (
    (await rows(connection, `SELECT 1 FROM duckdb_views() WHERE ${inMain("view_name")} AND NOT temporary`, [table]))
      .length > 0
  );
}
