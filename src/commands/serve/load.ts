/** `adreport serve load`: NDJSON files into the database, each whole or not at all. */
import { loadNdjsonFile } from "../../server";
import type { Context } from "../context";
import { type DbOptions, withDatabase } from "./operator";

export async function runLoad(ctx: Context, files: string[], options: DbOptions): Promise<void> {
  await withDatabase(ctx, options.db, false, async (db) => {
    for (const file of files) {
      const started = performance.now();
      const result = await loadNdjsonFile(db, file);
      const seconds = (performance.now() - started) / 1000;
      const lines = result.adHours + result.keywordHours;
      ctx.io.err.write(
        `adreport serve: loaded ${file}: ${result.adHours} ad hours, ${result.keywordHours} keyword hours (${Math.round(lines / Math.max(seconds, 1e-3))} lines/s)\n`,
      );
    }
  });
}
