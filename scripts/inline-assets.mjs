// Files the bundle carries as text (esbuild `define`s): Chart.js's browser build, put inline in every
// page of `--format html` (src/format/html/chart-library.ts reads the same file when run from source).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

export function inlineAssets() {
  const chartJs = readFileSync(join(dirname(require.resolve("chart.js")), "chart.umd.min.js"), "utf8");
  return { ADREPORT_CHART_JS: JSON.stringify(chartJs.replace(/\n\/\/# sourceMappingURL=\S*\s*$/, "\n")) };
}
