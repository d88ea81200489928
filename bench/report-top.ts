/**
 * `report --top 10 --sort clicks` (issue 17) against a plain CSV export of the same 200k-row report from a
 * local `serve` of the 5,000-ad data set: peak RSS of each child process (GNU time), median of 3, interleaved.
 * The bounded heap keeps 10 rows, so the top-10 export should need no more memory than the plain one.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { BIG_DB, ensureBigDb, issueBenchKey } from "./data";
import { BIN, figure, measureCommand, median, ROOT } from "./lib";
import { startServe } from "./serve-process";

/** About 200k hourly ad rows: 164 hours of the data set's last week. */
const REPORT = [
  "--from",
  "2026-10-25T04:00:00Z",
  "--to",
  "2026-10-31T23:59:59Z",
  "--dims",
  "ad,date",
  "--granularity",
  "hour",
  "--format",
  "csv",
];

export async function benchReportTop(): Promise<void> {
  // Built afresh: the figure is about the code of this tree, not a dist/ left from another.
  const built = spawnSync(process.execPath, [join(ROOT, "scripts", "build.mjs")], { stdio: "inherit" });
  if (built.status !== 0) throw new Error("build failed");
  ensureBigDb();
  const key = issueBenchKey();
  const server = await startServe(BIG_DB);
  const env = {
    ADREPORT_API_KEY: key,
    ADREPORT_BASE_URL: server.url,
    ADREPORT_CONFIG_DIR: "/nonexistent-adreport-bench",
  };
  try {
    const total = await rowsOf(server.url, key);
    const plain = ["report", ...REPORT];
    const top = [...plain, "--top", "10", "--sort", "clicks"];
    // A warm-up of each, so the service answers both from its computed report.
    measureCommand(process.execPath, [BIN, ...plain], env);
    measureCommand(process.execPath, [BIN, ...top], env);
    const plainRuns = [];
    const topRuns = [];
    for (let i = 0; i < 3; i += 1) {
      plainRuns.push(measureCommand(process.execPath, [BIN, ...plain], env));
      topRuns.push(measureCommand(process.execPath, [BIN, ...top], env));
    }
    const plainPeak = median(plainRuns.map((r) => r.peakMb));
    const topPeak = median(topRuns.map((r) => r.peakMb));
    const seconds = (runs: Array<{ seconds: number }>) => median(runs.map((r) => r.seconds)).toFixed(1);
    figure(
      `plain CSV export of ${total} rows: peak RSS (median of 3)`,
      `${plainPeak.toFixed(0)} MB in ${seconds(plainRuns)} s`,
    );
    figure(
      "--top 10 --sort clicks, same report: peak RSS (median of 3)",
      `${topPeak.toFixed(0)} MB in ${seconds(topRuns)} s  ${(topPeak / plainPeak).toFixed(2)}x`,
      topPeak / plainPeak <= 1.1,
    );
  } finally {
    await server.stop();
  }
}

async function rowsOf(base: string, key: string): Promise<number> {
  const params = new URLSearchParams({
    from: "2026-10-25T04:00:00Z",
    to: "2026-10-31T23:59:59Z",
    metrics: "clicks",
    dimensions: "ad,date",
    granularity: "hour",
    limit: "1",
  });
  const answer = await fetch(`${base}/v1/report?${params}`, { headers: { authorization: `Bearer ${key}` } });
  return ((await answer.json()) as { meta: { total: number } }).meta.total;
}
