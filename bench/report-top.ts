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

/** Peak RSS (MB, median of `runs`, interleaved after a warm-up of each) of the plain export and of --top 10. */
export async function measureTopRss(
  base: string,
  key: string,
  runs: number,
  from = "2026-10-25T04:00:00Z",
): Promise<{ rows: number; plainMb: number; topMb: number; plainS: number; topS: number }> {
  const env = { ADREPORT_API_KEY: key, ADREPORT_BASE_URL: base, ADREPORT_CONFIG_DIR: "/nonexistent-adreport-bench" };
  const plain = ["report", ...REPORT.map((arg) => (arg === "2026-10-25T04:00:00Z" ? from : arg))];
  const top = [...plain, "--top", "10", "--sort", "clicks"];
  // A warm-up of each, so the service answers both from its computed report.
  measureCommand(process.execPath, [BIN, ...plain], env);
  measureCommand(process.execPath, [BIN, ...top], env);
  const plainRuns = [];
  const topRuns = [];
  for (let i = 0; i < runs; i += 1) {
    plainRuns.push(measureCommand(process.execPath, [BIN, ...plain], env));
    topRuns.push(measureCommand(process.execPath, [BIN, ...top], env));
  }
  const mid = (runs: Array<{ seconds: number; peakMb: number }>, field: "seconds" | "peakMb") =>
    median(runs.map((r) => r[field]));
  return {
    rows: await rowsOf(base, key, from),
    plainMb: mid(plainRuns, "peakMb"),
    topMb: mid(topRuns, "peakMb"),
    plainS: mid(plainRuns, "seconds"),
    topS: mid(topRuns, "seconds"),
  };
}

export async function benchReportTop(): Promise<void> {
  // Built afresh: the figure is about the code of this tree, not a dist/ left from another.
  const built = spawnSync(process.execPath, [join(ROOT, "scripts", "build.mjs")], { stdio: "inherit" });
  if (built.status !== 0) throw new Error("build failed");
  ensureBigDb();
  const key = issueBenchKey();
  const server = await startServe(BIG_DB);
  try {
    const { rows, plainMb, topMb, plainS, topS } = await measureTopRss(server.url, key, 3);
    figure(
      `plain CSV export of ${rows} rows: peak RSS (median of 3)`,
      `${plainMb.toFixed(0)} MB in ${plainS.toFixed(1)} s`,
    );
    figure(
      "--top 10 --sort clicks, same report: peak RSS (median of 3)",
      `${topMb.toFixed(0)} MB in ${topS.toFixed(1)} s  ${(topMb / plainMb).toFixed(2)}x`,
      topMb / plainMb <= 1.1,
    );
  } finally {
    await server.stop();
  }
}

async function rowsOf(base: string, key: string, from: string): Promise<number> {
  const params = new URLSearchParams({
    from,
    to: "2026-10-31T23:59:59Z",
    metrics: "clicks",
    dimensions: "ad,date",
    granularity: "hour",
    limit: "1",
  });
  const answer = await fetch(`${base}/v1/report?${params}`, { headers: { authorization: `Bearer ${key}` } });
  return ((await answer.json()) as { meta: { total: number } }).meta.total;
}
