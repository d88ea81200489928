/**
 * `report` benchmarks (issue 4) against a local `serve` of the 5,000-ad data set. Each figure is a ratio
 * against a baseline measured in the same run.
 */
import { spawn } from "node:child_process";
import { existsSync, openSync } from "node:fs";
import { join } from "node:path";
import { BIG_DB, ensureBigDb, issueBenchKey } from "./data";
import { BIN, ensureBuilt, figure, measureCommand, median, ROOT, timeAsync } from "./lib";
import { startServe } from "./serve-process";

const DEV_NULL = openSync("/dev/null", "w");

function exportToNull(args: readonly string[], env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "report", ...args], {
      stdio: ["ignore", DEV_NULL, "pipe"],
      env: { ...process.env, ...env },
    });
    let stderr = "";
    child.stderr?.on("data", (c: Buffer) => {
      stderr += c.toString();
    });
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`report exited ${code}: ${stderr}`))));
  });
}

/** The plain baseline (bench/fetch-loop.mjs): one page after another with fetch, in its own process. */
function sequentialFetch(base: string, key: string, params: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [join(ROOT, "bench", "fetch-loop.mjs"), base, key, new URLSearchParams(params).toString()],
      {
        stdio: "inherit",
      },
    );
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`fetch loop exited ${code}`))));
  });
}

async function totalOf(base: string, key: string, params: Record<string, string>): Promise<number> {
  const url = `${base}/v1/report?${new URLSearchParams({ ...params, limit: "1" })}`;
  return (
    (await (await fetch(url, { headers: { authorization: `Bearer ${key}` } })).json()) as { meta: { total: number } }
  ).meta.total;
}

function toArgs(params: Record<string, string>): string[] {
  return Object.entries(params).flatMap(([name, value]) => [`--${name === "dimensions" ? "dims" : name}`, value]);
}

export async function benchReport(): Promise<void> {
  ensureBuilt();
  ensureBigDb();
  const key = issueBenchKey();
  const server = await startServe(BIG_DB);
  const env = {
    ADREPORT_API_KEY: key,
    ADREPORT_BASE_URL: server.url,
    ADREPORT_CONFIG_DIR: "/nonexistent-adreport-bench",
  };
  try {
    // 1. A large NDJSON export against a plain sequential fetch loop (both after one warm-up run, so the
    //    service answers both from its computed report).
    const big = {
      from: "2026-08-03",
      to: "2026-10-31",
      metrics: "views,spending,clicks,conversions",
      dimensions: "ad,date",
    };
    const rows = await totalOf(server.url, key, big);
    await sequentialFetch(server.url, key, big);
    await exportToNull([...toArgs(big), "--format", "ndjson"], env);
    const loop: number[] = [];
    const ours: number[] = [];
    // Five interleaved pairs: the ratio sits near its target, and three medians swung it by 0.04.
    for (let i = 0; i < 5; i += 1) {
      loop.push(await timeAsync(() => sequentialFetch(server.url, key, big)));
      ours.push(await timeAsync(() => exportToNull([...toArgs(big), "--format", "ndjson"], env)));
    }
    const ratio = median(ours) / median(loop);
    figure(`sequential fetch loop (own process), ${rows} rows (median of 5)`, `${median(loop).toFixed(0)} ms`);
    figure(
      "adreport report --format ndjson, concurrency 4 (median of 5)",
      `${median(ours).toFixed(0)} ms  ${ratio.toFixed(2)}x`,
      ratio <= 0.8,
    );

    // 2. Peak memory of CSV exports of 1M and 100k rows (hourly ad rows over 34 days and over 3.4 days),
    //    median of 3; the 1M-row one also through the single binary when `npm run package` made it. The
    //    target is a cron container with 128 MiB.
    const hourly = { metrics: "views,spending,clicks,conversions", dimensions: "ad,date", granularity: "hour" };
    const large = { ...hourly, from: "2026-09-27T00:00:00Z", to: "2026-10-31T23:59:59Z" };
    const small = { ...hourly, from: "2026-10-28T14:00:00Z", to: "2026-10-31T23:59:59Z" };
    const binary = join(ROOT, "dist", `adreport-${process.platform}-${process.arch}`);
    const runners: [string, string, string[]][] = [["bin/adreport", process.execPath, [BIN]]];
    if (existsSync(binary)) runners.push(["single binary", binary, []]);
    const peaks: Record<string, number> = {};
    for (const [runner, command, prefix] of runners) {
      for (const [label, params] of [
        ["small", small],
        ["large", large],
      ] as const) {
        if (runner !== "bin/adreport" && label === "small") continue;
        const total = await totalOf(server.url, key, params);
        const runs = [0, 1, 2].map(() =>
          measureCommand(command, [...prefix, "report", ...toArgs(params), "--format", "csv"], env),
        );
        const peak = median(runs.map((r) => r.peakMb));
        if (runner === "bin/adreport") peaks[label] = peak;
        figure(
          `CSV export of ${total} rows, ${runner}: peak RSS (median of 3)`,
          `${peak.toFixed(0)} MB in ${median(runs.map((r) => r.seconds)).toFixed(1)} s`,
          label === "large" ? peak <= 96 : undefined,
        );
      }
    }
    const growth = (peaks.large as number) / (peaks.small as number);
    figure("peak RSS, large export / small export", `${growth.toFixed(2)}x`, growth <= 1.3);
  } finally {
    await server.stop();
  }

  // 3. 50 ms added to every request: concurrency 4 against concurrency 1.
  const slow = await startServe(BIG_DB, ["--faults", "delay:50ms"]);
  try {
    const slowEnv = {
      ADREPORT_API_KEY: key,
      ADREPORT_BASE_URL: slow.url,
      ADREPORT_CONFIG_DIR: "/nonexistent-adreport-bench",
    };
    const params = {
      from: "2026-10-02",
      to: "2026-10-31",
      metrics: "views,clicks",
      dimensions: "campaign,date",
      granularity: "hour",
    };
    const pages = Math.ceil((await totalOf(slow.url, key, params)) / 500);
    await exportToNull([...toArgs(params), "--format", "ndjson", "--page-size", "500"], slowEnv);
    const times: Record<string, number[]> = { 1: [], 4: [] };
    for (let i = 0; i < 3; i += 1) {
      for (const c of ["1", "4"]) {
        times[c]?.push(
          await timeAsync(() =>
            exportToNull([...toArgs(params), "--format", "ndjson", "--page-size", "500", "--concurrency", c], slowEnv),
          ),
        );
      }
    }
    const one = median(times[1] ?? []);
    const four = median(times[4] ?? []);
    figure(`${pages} pages with 50 ms latency, concurrency 1 (median of 3)`, `${one.toFixed(0)} ms`);
    figure(
      `${pages} pages with 50 ms latency, concurrency 4 (median of 3)`,
      `${four.toFixed(0)} ms  ${(one / four).toFixed(2)}x faster`,
      one / four >= 2.5,
    );
  } finally {
    await slow.stop();
  }
}

function envOf(base: string, key: string): Record<string, string> {
  return { ADREPORT_API_KEY: key, ADREPORT_BASE_URL: base, ADREPORT_CONFIG_DIR: "/nonexistent-adreport-bench" };
}

/**
 * `report --format ndjson` of `params` against the plain fetch loop over the same pages: median ms of each,
 * `pairs` interleaved pairs after a warm-up of each (so the service answers both from its computed report).
 */
export async function measureNdjson(
  base: string,
  key: string,
  params: Record<string, string>,
  pairs: number,
): Promise<{ rows: number; loopMs: number; oursMs: number }> {
  const args = [...toArgs(params), "--format", "ndjson"];
  const rows = await totalOf(base, key, params);
  await sequentialFetch(base, key, params);
  await exportToNull(args, envOf(base, key));
  const loop: number[] = [];
  const ours: number[] = [];
  for (let i = 0; i < pairs; i += 1) {
    loop.push(await timeAsync(() => sequentialFetch(base, key, params)));
    ours.push(await timeAsync(() => exportToNull(args, envOf(base, key))));
  }
  return { rows, loopMs: median(loop), oursMs: median(ours) };
}

/** Peak RSS in MB (GNU time, median of `runs`) and rows of a CSV export of `params` to /dev/null. */
export async function measureCsvPeak(
  base: string,
  key: string,
  params: Record<string, string>,
  runs: number,
): Promise<{ rows: number; peakMb: number; seconds: number }> {
  const rows = await totalOf(base, key, params);
  const measured = Array.from({ length: runs }, () =>
    measureCommand(process.execPath, [BIN, "report", ...toArgs(params), "--format", "csv"], envOf(base, key)),
  );
  return { rows, peakMb: median(measured.map((r) => r.peakMb)), seconds: median(measured.map((r) => r.seconds)) };
}
