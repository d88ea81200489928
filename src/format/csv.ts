/** CSV through csv-stringify: header always, RFC 4180 quoting, written a page at a time. */
import { stringify } from "csv-stringify/sync";
import { writeChunk } from "../io/write";
import { cellsOf, columnsOf, peekFirstRow } from "./columns";
import type { Formatter } from "./formatter";

export const csvFormatter: Formatter = {
  async write(report, out, options) {
    const { first, all } = await peekFirstRow(report.pages);
    const columns = columnsOf(report.meta, first);
    const shape = { delimiter: options.delimiter, columns: [...columns.dimensionKeys, ...columns.metrics] };
    await writeChunk(out, stringify([], { ...shape, header: true, bom: options.bom }));
    for await (const page of all) {
      if (page.rows.length === 0) continue;
      const records = page.rows.map((row) => cellsOf(row, columns, report.meta.granularity));
      await writeChunk(out, stringify(records, { ...shape, header: false }));
    }
  },
};
