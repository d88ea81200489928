/**
 * `pictures` (issue 17, html and chart): peak memory and time of `--format html` and `--format chart` over
 * a report of about 200,000 rows (2,500 ads x 80 days), against a plain CSV export of the same report in
 * the same run. Both picture formats hold counters summed per entity and date until the end, so some
 * growth over CSV is expected; the figures say how much.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { BIG_DB, ensureBigDb, issueBenchKey, WORK } from "./data";
import { BIN, ensureBuilt, figure, measureCommand, median } from "./lib";
import { startServe } from "./serve-process";

export async function benchPictures(): Promise<void> {
  ensureBuilt();
  ensureBigDb();
  const key = issueBenchKey();
  const server = await startServe(BIG_DB);
  const env = {
    ADREPORT_API_KEY: key,
    ADREPORT_BASE_URL: server.url,
    ADREPORT_CONFIG_DIR: "/nonexistent-adreport-bench",
  };
  const report = ["report", "--from", "2026-08-13", "--to", "2026-10-31", "--dims", "ad,date", "-q"];
  const page = join(WORK, "pictures.html");
  try {
    const run = (format: string, output: string) => {
      const runs = [0, 1, 2].map(() =>
        measureCommand(process.execPath, [BIN, ...report, "-f", format, "-o", output], env),
      );
      return { peak: median(runs.map((r) => r.peakMb)), seconds: median(runs.map((r) => r.seconds)) };
    };
    const url = `${server.url}/v1/report?from=2026-08-13&to=2026-10-31&dimensions=ad,date&metrics=views&limit=1`;
    const answer = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
    const rows = ((await answer.json()) as { meta: { total: number } }).meta.total;
    console.log(`  ${rows} rows`);
    run("csv", "/dev/null"); // warm-up: the service computes the report once
    const csv = run("csv", "/dev/null");
    const html = run("html", page);
    const chart = run("chart", "/dev/null");
    figure(
      "CSV export, ad,date over 80 days: peak RSS (median of 3)",
      `${csv.peak.toFixed(0)} MB in ${csv.seconds.toFixed(1)} s`,
    );
    figure(
      "--format html, same report: peak RSS (median of 3)",
      `${html.peak.toFixed(0)} MB in ${html.seconds.toFixed(1)} s  ${(html.peak / csv.peak).toFixed(2)}x CSV`,
    );
    figure("--format html, size of the page", `${(statSync(page).size / 1e6).toFixed(1)} MB`);
    figure(
      "--format chart, same report: peak RSS (median of 3)",
      `${chart.peak.toFixed(0)} MB in ${chart.seconds.toFixed(1)} s  ${(chart.peak / csv.peak).toFixed(2)}x CSV`,
    );
  } finally {
    await server.stop();
  }
}
