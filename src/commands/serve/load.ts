/** `adreport serve load`: NDJSON files into the database, each whole or not at all. */
import { loadNdjsonInto } from "../../server";
import type { Context } from "../context";
import { type DbOptions, withStore } from "./operator";

/** `shown` names a file in messages when it is not the one the user gave (see load-from-export.ts). */
export async function runLoad(
  ctx: Context,
  files: string[],
  options: DbOptions,
  shown: (file: string) => string = (file) => file,
): Promise<void> {
  // SIGINT/SIGTERM: the file being loaded is left out whole (exit 130), the files after it are not started.
  const stop = new AbortController();
  const stopListening = ctx.onSignal(() => stop.abort());
  try {
    await loadFiles(ctx, files, options, shown, stop.signal);
  } finally {
    stopListening();
  }
}

async function loadFiles(
  ctx: Context,
  files: string[],
  options: DbOptions,
  shown: (file: string) => string,
  stop: AbortSignal,
): Promise<void> {
  await withStore(ctx, options.db, false, async (store) => {
    for (const file of files) {
      const started = performance.now();
      const result = await loadNdjsonInto(store, file, shown(file), stop);
      const seconds = (performance.now() - started) / 1000;
      const lines = result.adHours + result.keywordHours;
      ctx.io.err.write(
        `adreport serve: loaded ${shown(file)}: ${result.adHours} ad hours, ${result.keywordHours} keyword hours (${Math.round(lines / Math.max(seconds, 1e-3))} lines/s)\n`,
      );
    }
  });
}
