/**
 * Chart.js's browser build, as text to put inline in every page. The builds (scripts/inline-assets.mjs)
 * define ADREPORT_CHART_JS with the file's text, so the bundle and the single-file binary carry it; run
 * from source (tests, tsx) it is read from node_modules.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

declare const ADREPORT_CHART_JS: string;

/** The file without its source-map comment: a page opened from disk fetches nothing, not even a map. */
function withoutSourceMap(text: string): string {
  return text.replace(/\n\/\/# sourceMappingURL=\S*\s*$/, "\n");
}

export function chartLibrary(): string {
  if (typeof ADREPORT_CHART_JS === "string") return ADREPORT_CHART_JS;
  const main = createRequire(import.meta.url).resolve("chart.js");
  return withoutSourceMap(readFileSync(join(dirname(main), "chart.umd.min.js"), "utf8"));
}
