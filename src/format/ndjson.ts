/** NDJSON: one API row per line, as the service sent it, written page by page as pages arrive. */
import { writeChunk } from "../io/write";
import type { Formatter } from "./formatter";
import { joinRows } from "./rows-as-sent";

export const ndjsonFormatter: Formatter = {
  async write(report, out) {
    for await (const page of report.pages) {
      if (page.rows.length > 0) await writeChunk(out, joinRows(page, "\n", "\n"));
    }
  },
};
