/**
 * CSV through csv-stringify: header always, RFC 4180 quoting, written a page at a time. Plain CSV keeps
 * every value's exact bytes; `spreadsheet` shapes it for spreadsheet programs (see spreadsheetCell).
 */
import { type Options, stringify } from "csv-stringify/sync";
import { writeChunk } from "../io/write";
import { cellsOf, columnsOf, peekFirstRow } from "./columns";
import type { FormatOptions, Formatter } from "./formatter";

/** Spreadsheet programs run a cell starting with one of these as a formula (OWASP, CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A text cell for a spreadsheet program: one that would run as a formula gets a leading `'`, which makes
 * it text, as OWASP advises. Only strings reach this (csv-stringify's cast for strings), so numbers such
 * as -5 stay numbers; dates are written as digits first and never start with one of those characters.
 */
export function spreadsheetCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

function stringifyOptions(options: FormatOptions, columns: string[]): Options {
  const shape: Options = { delimiter: options.delimiter, columns };
  if (!options.spreadsheet) return shape;
  return {
    ...shape,
    record_delimiter: "windows",
    // With CRLF records csv-stringify quotes only fields holding the whole "\r\n"; a lone LF or CR in a
    // name would end the row in a spreadsheet program and start a new one whose cells are not defused.
    quoted_match: /[\r\n]/,
    cast: { string: spreadsheetCell },
  };
}

export const csvFormatter: Formatter = {
  async write(report, out, options) {
    const { first, all } = await peekFirstRow(report.pages);
    const columns = columnsOf(report.meta, first, report.fields);
    const shape = stringifyOptions(
      options,
      columns.order.map((c) => c.name),
    );
    await writeChunk(out, stringify([], { ...shape, header: true, bom: options.bom || options.spreadsheet }));
    for await (const page of all) {
      if (page.rows.length === 0) continue;
      const records = page.rows.map((row) => cellsOf(row, columns, report.meta.granularity));
      await writeChunk(out, stringify(records, { ...shape, header: false }));
    }
  },
};
