/** NDJSON: one API row per line, as the service sent it, written page by page as pages arrive. */
import { writeChunk } from "../io/write";
import type { Formatter } from "./formatter";

export const ndjsonFormatter: Formatter = {
  async write(report, out) {
    for await (const page of report.pages) {
      if (page.length > 0) await writeChunk(out, `${page.map((row) => JSON.stringify(row)).join("\n")}\n`);
    }
  },
};
