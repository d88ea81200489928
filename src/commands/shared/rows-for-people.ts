/**
 * A list for people as gh prints one: a box-drawn table on a terminal; into a pipe or a file, one line a
 * row with its fields split by tabs and no header (TSV escapes, so `cut -f2` and `awk -F'\t'` read it).
 */
import { tsvField } from "../../format/tsv";
import type { Context } from "../context";

/** `shown` turns an empty cell into what a person reads (`(none)`); a pipe gets the empty field. */
export async function rowsForPeople(
  ctx: Pick<Context, "io">,
  head: readonly string[],
  rows: readonly (readonly string[])[],
  shown: (cell: string, column: number) => string = (cell) => cell,
): Promise<string> {
  if (!ctx.io.outIsTTY) return rows.map((row) => `${row.map(tsvField).join("\t")}\n`).join("");
  const { default: Table } = await import("cli-table3");
  const table = new Table({ head: [...head], style: { head: [], border: [] } });
  for (const row of rows) table.push(row.map(shown));
  return `${table.toString()}\n`;
}
