// Files the bundle carries as text (esbuild `define`s): Chart.js's browser build, put inline in every
// page of `--format html` (src/format/html/chart-library.ts reads the same file when run from source),
// and the help topics of docs/topics/ (src/cli/topic-text.ts).
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

export function inlineAssets() {
  const chartJs = readFileSync(join(dirname(require.resolve("chart.js")), "chart.umd.min.js"), "utf8");
  const topicsDir = new URL("../docs/topics/", import.meta.url);
  const topics = Object.fromEntries(
    readdirSync(topicsDir)
      .filter((file) => file.endsWith(".md"))
      .map((file) => [file.slice(0, -3), readFileSync(new URL(file, topicsDir), "utf8")]),
  );
  return {
    ADREPORT_CHART_JS: JSON.stringify(chartJs.replace(/\n\/\/# sourceMappingURL=\S*\s*$/, "\n")),
    ADREPORT_TOPICS: JSON.stringify(JSON.stringify(topics)),
  };
}
