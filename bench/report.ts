/**
 * `report` benchmarks (issue 4) against a local `serve` of the 5,000-ad data set. Each figure is a ratio
 * against a baseline measured in the same run.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, openSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIG_DB, ensureBigDb, issueBenchKey, WORK } from "./data";
import { BIN, ensureBuilt, figure, measureCommand, median, ROOT, timeAsync } from "./lib";
import { type ServerProcess, startProcess, startServe } from "./serve-process";

const DEV_NULL = openSync("/dev/null", "w");

/** Wall time and CPU time (user + system, GNU time) of a child process run to its end. */
interface Timed {
  ms: number;
  cpuMs: number;
}

function timedChild(args: readonly string[], env: Record<string, string> = {}): Promise<Timed> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn("/usr/bin/time", ["-f", "__time %U %S", process.execPath, ...args], {
      stdio: ["ignore", DEV_NULL, "pipe"],
      env: { ...process.env, ...env },
    });
    let stderr = "";
    child.stderr?.on("data", (c: Buffer) => {
      stderr += c.toString();
    });
    child.on("close", (code) => {
      const ms = performance.now() - start;
      const match = /__time ([\d.]+) ([\d.]+)/.exec(stderr);
      if (code === 0 && match) resolve({ ms, cpuMs: (Number(match[1]) + Number(match[2])) * 1000 });
      else reject(new Error(`${args.slice(0, 2).join(" ")} exited ${code}: ${stderr}`));
    });
  });
}

function exportToNull(args: readonly string[], env: Record<string, string>): Promise<Timed> {
  return timedChild([BIN, "report", ...args], env);
}

/** The plain baseline (bench/fetch-loop.mjs): one page after another with fetch, in its own process. */
function sequentialFetch(
  base: string,
  key: string,
  params: Record<string, string>,
  pages?: number,
  write?: "ndjson",
): Promise<Timed> {
  const query = new URLSearchParams(params).toString();
  const extra = [...(pages === undefined ? (write ? ["all"] : []) : [String(pages)]), ...(write ? [write] : [])];
  return timedChild([join(ROOT, "bench", "fetch-loop.mjs"), base, key, query, ...extra]);
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

/** The export floor's target: the NDJSON export at most this times the plain fetch loop's time. */
export const EXPORT_FLOOR_TARGET = 1.05;
/** The 1M-row CSV export's peak RSS target, in MB (a cron container with 128 MiB). */
export const CSV_RSS_TARGET_MB = 96;

export interface ServeForBench {
  url: string;
  key: string;
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** `serve` on the 5,000-ad data set (built once into .bench/) and a key for it. */
export async function serveBigData(flags: readonly string[] = []): Promise<ServeForBench> {
  ensureBuilt();
  ensureBigDb();
  const key = issueBenchKey();
  const server = await startServe(BIG_DB, flags);
  return {
    url: server.url,
    key,
    env: { ADREPORT_API_KEY: key, ADREPORT_BASE_URL: server.url, ADREPORT_CONFIG_DIR: "/nonexistent-adreport-bench" },
    stop: () => server.stop(),
  };
}

export interface ExportFloor {
  rows: number;
  loopMs: number;
  /**
   * The same loop parsing each body with JSON.parse (bench/fetch-loop.mjs without a page count): the least
   * work a client that checks the pages it exports does, done plainly.
   */
  parsingMs: number;
  /**
   * The same loop writing each page's rows as NDJSON (JSON.stringify of each row): a plain client that
   * exports the pages it checks, the floor of `export.ndjson_vs_plain_export` (issue 35).
   */
  plainExportMs: number;
  exportMs: number;
  /** exportMs / loopMs: the figure. */
  ratio: number;
  /** CPU time (user + system) of each: the client's work, whatever else the machine runs. */
  loopCpuMs: number;
  exportCpuMs: number;
  cpuRatio: number;
}

const FLOOR_REPORT = {
  from: "2026-08-03",
  to: "2026-10-31",
  metrics: "views,spending,clicks,conversions",
  dimensions: "ad,date",
};

/** Every page of `params` (1,000 rows each) from `server`, kept once in `dir` as N.json. */
async function recordPages(server: ServeForBench, params: Record<string, string>, dir: string): Promise<void> {
  if (existsSync(join(dir, "1.json"))) return;
  mkdirSync(`${dir}.tmp`, { recursive: true });
  for (let page = 1; ; page += 1) {
    const query = new URLSearchParams({ ...params, page: String(page), limit: "1000" });
    const response = await fetch(`${server.url}/v1/report?${query}`, {
      headers: { authorization: `Bearer ${server.key}` },
    });
    const body = await response.text();
    if (response.status !== 200) throw new Error(`page ${page}: ${response.status} ${body.slice(0, 200)}`);
    writeFileSync(join(`${dir}.tmp`, `${page}.json`), body);
    if (!(JSON.parse(body) as { meta: { has_more: boolean } }).meta.has_more) break;
  }
  renameSync(`${dir}.tmp`, dir);
}

/**
 * A large NDJSON export (ad,date daily over 90 days, 225k rows) against the raw transfer of the same pages
 * (bench/fetch-loop.mjs: one keep-alive connection, bodies read as bytes), both from bench/page-replay.mjs answering the same pages, recorded once from
 * `serve`: the service costs next to nothing, so the ratio is the client's work against the transfer
 * alone. `runs` interleaved pairs after one warm-up run each, medians.
 */
export async function measureExportFloor(server: ServeForBench, runs = 5): Promise<ExportFloor> {
  const dir = join(WORK, "floor-pages");
  await recordPages(server, FLOOR_REPORT, dir);
  const replay = await startProcess(process.execPath, [join(ROOT, "bench", "page-replay.mjs"), dir]);
  try {
    const env = { ...server.env, ADREPORT_BASE_URL: replay.url };
    const rows = await totalOf(replay.url, server.key, FLOOR_REPORT);
    const pages = Math.ceil(rows / 1000);
    const args = [...toArgs(FLOOR_REPORT), "--format", "ndjson"];
    await sequentialFetch(replay.url, server.key, FLOOR_REPORT, pages);
    await exportToNull(args, env);
    const loop: Timed[] = [];
    const parsing: Timed[] = [];
    const plain: Timed[] = [];
    const ours: Timed[] = [];
    await sequentialFetch(replay.url, server.key, FLOOR_REPORT, undefined, "ndjson");
    for (let i = 0; i < runs; i += 1) {
      loop.push(await sequentialFetch(replay.url, server.key, FLOOR_REPORT, pages));
      parsing.push(await sequentialFetch(replay.url, server.key, FLOOR_REPORT));
      plain.push(await sequentialFetch(replay.url, server.key, FLOOR_REPORT, undefined, "ndjson"));
      ours.push(await exportToNull(args, env));
    }
    const loopMs = median(loop.map((t) => t.ms));
    const parsingMs = median(parsing.map((t) => t.ms));
    const exportMs = median(ours.map((t) => t.ms));
    const loopCpuMs = median(loop.map((t) => t.cpuMs));
    const exportCpuMs = median(ours.map((t) => t.cpuMs));
    return {
      rows,
      loopMs,
      parsingMs,
      plainExportMs: median(plain.map((t) => t.ms)),
      exportMs,
      ratio: exportMs / loopMs,
      loopCpuMs,
      exportCpuMs,
      cpuRatio: exportCpuMs / loopCpuMs,
    };
  } finally {
    await replay.stop();
  }
}

/** A one-page report: 2026-10's totals by campaign (50 rows of one advertiser of the 5,000-ad set). */
export const ONE_PAGE_REPORT = {
  from: "2026-10-01",
  to: "2026-10-31",
  metrics: "views,spending,clicks,conversions",
  dimensions: "campaign",
};

export interface OneReport {
  /** `adreport report` of ONE_PAGE_REPORT as CSV into /dev/null, process start to exit. */
  reportMs: number;
  /**
   * The floor: bench/fetch-loop.mjs asking `serve` for the same page and parsing it, in its own process (Node's
   * start-up, its HTTP client, the page, JSON.parse): what any Node client of the service pays at the least.
   */
  fetchMs: number;
  reportCpuMs: number;
  fetchCpuMs: number;
}

/**
 * A real small report end to end against `server` (issue 35), against the floor of OneReport: `runs`
 * interleaved pairs after a warm-up of each (which also has `serve` keep the report), medians.
 */
export async function measureOneReport(server: ServeForBench, runs = 7): Promise<OneReport> {
  const args = [...toArgs(ONE_PAGE_REPORT), "--format", "csv"];
  const fetchOne = () => sequentialFetch(server.url, server.key, ONE_PAGE_REPORT);
  await fetchOne();
  await exportToNull(args, server.env);
  const fetches: Timed[] = [];
  const reports: Timed[] = [];
  for (let i = 0; i < runs; i += 1) {
    // Alternating which goes first, so neither always follows the other's traces in the caches.
    if (i % 2 === 0) fetches.push(await fetchOne());
    reports.push(await exportToNull(args, server.env));
    if (i % 2 === 1) fetches.push(await fetchOne());
  }
  return {
    reportMs: median(reports.map((t) => t.ms)),
    fetchMs: median(fetches.map((t) => t.ms)),
    reportCpuMs: median(reports.map((t) => t.cpuMs)),
    fetchCpuMs: median(fetches.map((t) => t.cpuMs)),
  };
}

export interface ExportRss {
  rows: number;
  peakMb: number;
  seconds: number;
}

const HOURLY = { metrics: "views,spending,clicks,conversions", dimensions: "ad,date", granularity: "hour" };
/** Hourly ad rows over 34 days: about 1M rows. */
export const LARGE_CSV = { ...HOURLY, from: "2026-09-27T00:00:00Z", to: "2026-10-31T23:59:59Z" };
/** The same over 3.4 days: about 100k rows. */
export const SMALL_CSV = { ...HOURLY, from: "2026-10-28T14:00:00Z", to: "2026-10-31T23:59:59Z" };

/**
 * Peak RSS (GNU time) of a CSV export of `params`, median of `runs`, through `command` + `prefix`; with
 * `replayDir`, from bench/page-replay.mjs answering the report's pages recorded there once from `server`
 * (a default `serve` computes a report larger than its cache again for every page).
 */
export async function measureCsvRss(
  server: ServeForBench,
  params: Record<string, string> = LARGE_CSV,
  runs = 3,
  [command, prefix]: [string, string[]] = [process.execPath, [BIN]],
  replayDir?: string,
): Promise<ExportRss> {
  let replay: ServerProcess | undefined;
  if (replayDir !== undefined) {
    await recordPages(server, params, replayDir);
    replay = await startProcess(process.execPath, [join(ROOT, "bench", "page-replay.mjs"), replayDir]);
  }
  try {
    const url = replay?.url ?? server.url;
    const env = { ...server.env, ADREPORT_BASE_URL: url };
    const rows = await totalOf(url, server.key, params);
    const measured = Array.from({ length: runs }, () =>
      measureCommand(command, [...prefix, "report", ...toArgs(params), "--format", "csv"], env),
    );
    return { rows, peakMb: median(measured.map((r) => r.peakMb)), seconds: median(measured.map((r) => r.seconds)) };
  } finally {
    await replay?.stop();
  }
}

export async function benchReport(): Promise<void> {
  // A report larger than the default cache would be computed again for every page while it is recorded.
  const server = await serveBigData(["--cache-mb", "1024"]);
  const key = server.key;
  try {
    // 1. A large NDJSON export against a plain sequential fetch loop. Five interleaved pairs: three medians
    //    swung the ratio by 0.04.
    const floor = await measureExportFloor(server);
    figure(
      `raw transfer, ${floor.rows} rows from replayed pages (median of 5)`,
      `${floor.loopMs.toFixed(0)} ms, ${floor.loopCpuMs.toFixed(0)} ms CPU`,
    );
    figure(
      "  the same loop parsing each page (JSON.parse), as a client that checks pages must (median of 5)",
      `${floor.parsingMs.toFixed(0)} ms  ${(floor.parsingMs / floor.loopMs).toFixed(2)}x`,
    );
    figure(
      "adreport report --format ndjson, concurrency 4 (median of 5)",
      `${floor.exportMs.toFixed(0)} ms  ${floor.ratio.toFixed(2)}x`,
      floor.ratio <= EXPORT_FLOOR_TARGET,
    );
    figure(
      "  its CPU time against the raw transfer's",
      `${floor.exportCpuMs.toFixed(0)} ms  ${floor.cpuRatio.toFixed(2)}x`,
    );

    // 2. Peak memory of CSV exports of 1M and 100k rows, median of 3; the 1M-row one also through the
    //    single binary when `npm run package` made it.
    const binary = join(ROOT, "dist", `adreport-${process.platform}-${process.arch}`);
    const small = await measureCsvRss(server, SMALL_CSV, 3, undefined, join(WORK, "csv-100k-pages"));
    figure(
      `CSV export of ${small.rows} rows, bin/adreport: peak RSS (median of 3)`,
      `${small.peakMb.toFixed(0)} MB in ${small.seconds.toFixed(1)} s`,
    );
    const large = await measureCsvRss(server, LARGE_CSV, 3, undefined, join(WORK, "csv-1m-pages"));
    figure(
      `CSV export of ${large.rows} rows, bin/adreport: peak RSS (median of 3)`,
      `${large.peakMb.toFixed(0)} MB in ${large.seconds.toFixed(1)} s`,
      large.peakMb <= CSV_RSS_TARGET_MB,
    );
    if (existsSync(binary)) {
      const sea = await measureCsvRss(server, LARGE_CSV, 3, [binary, []], join(WORK, "csv-1m-pages"));
      figure(
        `CSV export of ${sea.rows} rows, single binary: peak RSS (median of 3)`,
        `${sea.peakMb.toFixed(0)} MB in ${sea.seconds.toFixed(1)} s`,
        sea.peakMb <= CSV_RSS_TARGET_MB,
      );
    }
    const growth = large.peakMb / small.peakMb;
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
