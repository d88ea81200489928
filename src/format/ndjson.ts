/** NDJSON: one API row per line, as the service sent it, written as it arrives. */
import { writeChunk } from "../io/write";
import type { Formatter } from "./formatter";

export const ndjsonFormatter: Formatter = {
  async write(report, out) {
    for await (const row of report.rows) await writeChunk(out, `${JSON.stringify(row)}\n`);
  },
};
