/** CSV through csv-stringify: header always, RFC 4180 quoting, streamed row by row. */
import type { Writable } from "node:stream";
import { stringify } from "csv-stringify";
import { writeChunk } from "../io/write";
import { cellsOf, columnsOf, peek } from "./columns";
import type { Formatter } from "./formatter";

export const csvFormatter: Formatter = {
  async write(report, out: Writable, options) {
    const { first, all } = await peek(report.rows);
    const columns = columnsOf(report.meta, first);
    const stringifier = stringify({
      header: true,
      columns: [...columns.dimensionKeys, ...columns.metrics],
      delimiter: options.delimiter,
      bom: options.bom,
    });
    const feeding = (async () => {
      for await (const row of all) {
        if (!stringifier.write(cellsOf(row, columns, report.meta.granularity))) {
          await new Promise((resolve) => stringifier.once("drain", resolve));
        }
      }
      stringifier.end();
    })().catch((error: unknown) => {
      stringifier.destroy(error as Error);
      throw error;
    });
    feeding.catch(() => undefined);
    for await (const chunk of stringifier) await writeChunk(out, String(chunk));
    await feeding;
  },
};
