/**
 * TSV as TSV readers take it (Miller, PostgreSQL's COPY text format, awk with FS="\t"): a header, one line
 * per row, fields split by tabs, never quoted. A backslash, tab, line feed or carriage return inside a
 * value is written as `\\`, `\t`, `\n`, `\r`, so every line is one row and every tab splits two fields.
 * A value that is missing is an empty field.
 */
import { writeChunk } from "../io/write";
import { cellsOf, columnsOf, peekFirstRow } from "./columns";
import type { Formatter } from "./formatter";

const SPECIAL = /[\\\t\n\r]/;
const SPECIAL_ALL = /[\\\t\n\r]/g;
const ESCAPES: Readonly<Record<string, string>> = { "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" };

/** One field: the escapes above, in one pass so a backslash written for an escape is never escaped again. */
export function tsvField(value: string | number | undefined): string {
  if (value === undefined) return "";
  const text = String(value);
  return SPECIAL.test(text) ? text.replace(SPECIAL_ALL, (char) => ESCAPES[char] ?? char) : text;
}

function line(cells: ReadonlyArray<string | number | undefined>): string {
  return `${cells.map(tsvField).join("\t")}\n`;
}

export const tsvFormatter: Formatter = {
  async write(report, out) {
    const { first, all } = await peekFirstRow(report.pages);
    const columns = columnsOf(report.meta, first, report.fields);
    await writeChunk(out, line(columns.order.map((c) => c.name)));
    for await (const page of all) {
      if (page.rows.length === 0) continue;
      await writeChunk(out, page.rows.map((row) => line(cellsOf(row, columns, report.meta.granularity))).join(""));
    }
  },
};
