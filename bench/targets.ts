/**
 * Issue 15: database targets and incremental runs, against a local `serve` of the 5,000-ad data set.
 * 1. A 1M-row export (hourly ad rows over 34 days) into a CSV file, into SQLite and into PostgreSQL (a
 *    throwaway cluster with default durability), 3 interleaved runs each, a fresh file or table each time.
 * 2. A cron job of 90 days of daily ad rows into {date} files: the first run (the whole history), then the
 *    next morning's run with --lookback 3d; wall time and requests, in-process with an injected clock.
 */
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { run as runCli } from "../src/cli/main";
import { systemContext } from "../src/cli/system-context";
import { BIG_DB, ensureBigDb, HOURLY_EXPORT, HOURLY_EXPORT_LABEL, issueBenchKey, WORK } from "./data";
import { BIN, ensureBuilt, figure, measureCommand, median } from "./lib";
import { startBenchCluster } from "./postgres-cluster";
import { startServe } from "./serve-process";
import { benchTargetWriters } from "./target-writers";

/**
 * Seconds (median of `runs`, interleaved, a fresh file or table each) of the `report` export `args` into a
 * CSV file, into `sqlite:PATH` and, given a URL, into PostgreSQL, after one warm-up export that has the
 * service compute the report. `env` points the CLI at the service.
 */
export async function measureTargets(
  env: Record<string, string>,
  out: string,
  args: readonly string[],
  runs: number,
  postgresUrl: string | undefined,
): Promise<{ csv: number; sqlite: number; postgres: number | undefined }> {
  const exportTo = (output: string, extra: string[] = []) =>
    measureCommand(process.execPath, [BIN, "report", ...args, "-o", output, ...extra], env).seconds;
  exportTo(join(out, "warm.csv"), ["--timeout", "5m"]); // the service computes the report once; every run after reads its cache
  const csv: number[] = [];
  const sqlite: number[] = [];
  const postgres: number[] = [];
  const tag = Date.now();
  for (let i = 0; i < runs; i += 1) {
    csv.push(exportTo(join(out, `run${i}.csv`)));
    sqlite.push(exportTo(`sqlite:${join(out, `run${i}.db`)}`, ["--table", "ads_hourly"]));
    if (postgresUrl !== undefined) postgres.push(exportTo(postgresUrl, ["--table", `ads_hourly_${tag}_${i}`]));
  }
  return { csv: median(csv), sqlite: median(sqlite), postgres: postgres.length > 0 ? median(postgres) : undefined };
}

export async function benchTargets(): Promise<void> {
  ensureBuilt();
  ensureBigDb();
  const key = issueBenchKey();
  // A loaded machine may take longer than serve's default 10 s to read a request while it computes a report.
  const server = await startServe(BIG_DB, [
    "--header-timeout",
    "120",
    // A 1M-row hourly report outgrows the default 64 MB of computed reports: every page would compute it
    // again (2 s a page here), and the figure would measure serve, not the targets.
    "--cache-mb",
    "1024",
  ]);
  const out = join(WORK, "targets");
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const config = join(out, "config");
  const env = { ADREPORT_API_KEY: key, ADREPORT_BASE_URL: server.url, ADREPORT_CONFIG_DIR: config };
  const cluster = await startBenchCluster({ durable: true });
  if (typeof cluster === "string") console.log(`  (PostgreSQL figures skipped: ${cluster})`);
  try {
    await benchTargetWriters(out, typeof cluster === "string" ? undefined : cluster.adminUrl);
    const { csv, sqlite, postgres } = await measureTargets(
      env,
      out,
      HOURLY_EXPORT,
      3,
      typeof cluster === "string" ? undefined : cluster.adminUrl,
    );
    figure(`${HOURLY_EXPORT_LABEL} export to a CSV file (median of 3)`, `${csv.toFixed(2)} s`);
    const sqliteRatio = sqlite / csv;
    figure(
      "the same into sqlite:PATH (median of 3)",
      `${sqlite.toFixed(2)} s  ${sqliteRatio.toFixed(2)}x`,
      sqliteRatio <= 1.5,
    );
    if (postgres !== undefined) {
      const pgRatio = postgres / csv;
      figure(
        "the same into postgres:// (COPY, median of 3)",
        `${postgres.toFixed(2)} s  ${pgRatio.toFixed(2)}x`,
        pgRatio <= 2,
      );
    }

    // 2. The cron job, in this process with its clock set: the data set's last day is 2026-10-31.
    const days = join(out, "days");
    mkdirSync(days);
    const summary = join(out, "summary.json");
    const cron = async (now: string, extra: string[]) => {
      const ctx = { ...systemContext(), env: { ...process.env, ...env }, now: () => new Date(now) };
      const start = performance.now();
      const code = await runCli(
        [
          "report",
          "--dims",
          "ad,date",
          "-o",
          join(days, "{date}.csv"),
          "--incremental",
          "-q",
          "--summary-file",
          summary,
          ...extra,
        ],
        ctx,
      );
      const ms = performance.now() - start;
      if (code !== 0) throw new Error(`incremental run exited ${code}`);
      return { ms, summary: JSON.parse(readFileSync(summary, "utf8")) as Record<string, number> };
    };
    const first = await cron("2026-11-01T06:00:00Z", ["--start", "2026-08-03"]);
    figure(
      `first run: 90 days, ${first.summary.rows} rows, ${first.summary.days_written} files`,
      `${(first.ms / 1000).toFixed(2)} s, ${first.summary.requests} requests`,
    );
    const daily = await cron("2026-11-02T06:00:00Z", ["--lookback", "3d"]);
    figure(
      `next morning, --lookback 3d: ${daily.summary.rows} rows, ${daily.summary.days_written} written`,
      `${(daily.ms / 1000).toFixed(2)} s, ${daily.summary.requests} requests`,
    );
    figure("daily run / first run, wall time", `${(daily.ms / first.ms).toFixed(3)}x`);
  } finally {
    if (typeof cluster !== "string") cluster.stop();
    await server.stop();
  }
}
