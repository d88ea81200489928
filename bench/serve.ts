/**
 * `serve` benchmarks (issue 3) on a generated data set of 5,000 ads with 90 days of hourly data.
 * Every figure is a ratio against a baseline measured in the same run.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import autocannon from "autocannon";
import Database from "better-sqlite3";
import { ADVERTISER, BIG_DB, ensureBigDb, issueBenchKey, WORK } from "./data";
import { BIN, cli, ensureBuilt, figure, measureCommand, median, peakRssMb, ROOT, timeAsync } from "./lib";
import { startProcess, startServe } from "./serve-process";

/** The 90-day range of the data set, ending k hours early: another query with the same work, so no run is served from cache. */
function range(k: number): { from: string; to: string } {
  return { from: "2026-08-03", to: `2026-10-31T${String(23 - k).padStart(2, "0")}:59:59Z` };
}

async function getJson(url: string, key: string): Promise<{ meta: { total: number; has_more: boolean } }> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { meta: { total: number; has_more: boolean } };
}

/** The campaign,date aggregation straight from the raw hourly rows, as a direct better-sqlite3 query. */
function directQueryMs(): number {
  const db = new Database(BIG_DB, { readonly: true });
  const advertiser = (db.prepare("SELECT id FROM advertisers WHERE name = ?").get(ADVERTISER) as { id: number }).id;
  const stmt = db.prepare(
    `SELECT a.campaign_id, h.hour - h.hour % 86400 AS day, sum(h.views), sum(h.clicks - h.bot_clicks), sum(h.conversions), sum(h.spending_micros)
     FROM campaigns c JOIN ads a ON a.campaign_id = c.id JOIN ad_hours h ON h.ad_id = a.id AND h.hour BETWEEN ? AND ?
     WHERE c.advertiser_id = ? GROUP BY 1, 2 ORDER BY 1, 2`,
  );
  const from = Date.parse(`${range(0).from}T00:00:00Z`) / 1000;
  const to = Date.parse(range(0).to) / 1000;
  const times: number[] = [];
  for (let i = 0; i < 5; i += 1) {
    const start = performance.now();
    stmt.all(from, to, advertiser);
    times.push(performance.now() - start);
  }
  db.close();
  return median(times);
}

export async function benchServe(): Promise<void> {
  ensureBuilt();
  ensureBigDb();
  const key = issueBenchKey();
  const server = await startServe(BIG_DB);
  const url = (params: Record<string, string>, k = 0) =>
    `${server.url}/v1/report?${new URLSearchParams({ ...range(k), ...params })}`;
  try {
    console.log(
      "data set: 2 advertisers x 2,500 ads, 90 days hourly (about 5.4M fact rows); reports for one advertiser",
    );

    // 1. First page of a 90-day campaign,date report against the raw aggregation, a fresh query each run.
    const direct = directQueryMs();
    const metrics = "views,clicks,spending,conversions";
    const firstPages: number[] = [];
    for (let k = 0; k < 5; k += 1) {
      firstPages.push(
        await timeAsync(() => getJson(url({ metrics, dimensions: "campaign,date", limit: "1000" }, k), key)),
      );
    }
    const first = median(firstPages);
    figure("direct query over raw hourly rows (median of 5)", `${direct.toFixed(1)} ms`);
    figure(
      "first page, 90-day campaign,date, limit 1000 (median of 5)",
      `${first.toFixed(1)} ms  ${(first / direct).toFixed(2)}x`,
      first / direct <= 1.5,
    );

    // 2. Every page of large reports against their first page, cold cache each time.
    for (const [label, params, runs] of [
      ["ad,date daily", { dimensions: "ad,date" }, 3],
      ["campaign,date hourly", { dimensions: "campaign,date", granularity: "hour" }, 3],
    ] as const) {
      const ratios: number[] = [];
      let pages = 0;
      for (let run = 0; run < runs; run += 1) {
        let firstMs = 0;
        const started = performance.now();
        const totalMs = await timeAsync(async () => {
          // The first page says how many there are; the rest are read as text (the service's work is
          // measured, not this script's JSON parsing).
          const first = await getJson(url({ ...params, metrics, limit: "1000", page: "1" }, 5 + run), key);
          firstMs = performance.now() - started;
          pages = Math.ceil(first.meta.total / 1000);
          for (let page = 2; page <= pages; page += 1) {
            const target = url({ ...params, metrics, limit: "1000", page: String(page) }, 5 + run);
            const response = await fetch(target, { headers: { authorization: `Bearer ${key}` } });
            if (response.status !== 200) throw new Error(`${target}: ${response.status}`);
            await response.text();
          }
        });
        ratios.push(totalMs / firstMs);
      }
      const r = median(ratios);
      figure(`all ${pages} pages of ${label} / first page (median of ${runs})`, `${r.toFixed(2)}x`, r <= 3);
    }

    // 3. Throughput with 32 connections on a small report against a bare fastify route serving the same JSON.
    const small = url({ from: "2026-10-25", to: "2026-10-31", metrics: "views,clicks,spending" });
    const bodyFile = join(WORK, "small-report.json");
    writeFileSync(bodyFile, await (await fetch(small, { headers: { authorization: `Bearer ${key}` } })).text());
    const bare = await startProcess(join(ROOT, "node_modules", ".bin", "tsx"), [
      join(ROOT, "bench", "bare-server.ts"),
      bodyFile,
    ]);
    const load = async (target: string) => {
      const result = await autocannon({
        url: target,
        connections: 32,
        duration: 5,
        headers: { authorization: `Bearer ${key}` },
      });
      if (result.non2xx > 0 || result.errors > 0)
        throw new Error(`${target}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      return result.requests.average;
    };
    try {
      await load(small); // warm-up of both
      await load(`${bare.url}/v1/report`);
      const serveRps = await load(small);
      const bareRps = await load(`${bare.url}/v1/report`);
      figure("bare fastify route from memory, 32 connections", `${Math.round(bareRps)} req/s`);
      figure(
        "serve, 7-day total, 32 connections",
        `${Math.round(serveRps)} req/s  ${((serveRps / bareRps) * 100).toFixed(0)}%`,
        serveRps / bareRps >= 0.4,
      );
    } finally {
      await bare.stop();
    }

    // 5. Peak RSS of serve after all of the above.
    figure("peak RSS of serve after these runs", `${peakRssMb(server.child.pid as number).toFixed(0)} MB`);
  } finally {
    await server.stop();
  }

  // 4. Loading NDJSON: lines per second, and peak memory for a file 10x larger.
  const loadFile = (campaigns: string) => [
    "--advertisers",
    "1",
    "--campaigns",
    campaigns,
    "--ads",
    "10",
    "--keywords",
    "1",
    "--days",
    "90",
    "--activity",
    "0.75",
    "--end",
    "2026-11-01",
  ];
  const sizes: Array<[string, string[]]> = [
    ["100k", loadFile("4")],
    ["1M", loadFile("40")],
    ["3M", loadFile("120")],
  ];

  const peaks: number[] = [];
  for (const [label, args] of sizes) {
    const file = join(WORK, `load-${label}.ndjson`);
    if (!existsSync(file)) cli(["serve", "demo", ...args, "--ndjson", file]);
    const lines = Number(execFileSync("wc", ["-l", file], { encoding: "utf8" }).split(" ")[0]);
    const db = join(WORK, `load-${label}.db`);
    rmSync(db, { force: true });
    cli(["serve", "init", "--db", db]);
    const run = measureCommand(process.execPath, [BIN, "serve", "load", "--db", db, file]);
    peaks.push(run.peakMb);
    figure(`load ${lines} lines`, `${Math.round(lines / run.seconds)} lines/s, peak RSS ${run.peakMb.toFixed(0)} MB`);
    rmSync(db, { force: true });
  }
  // Node's heap settles after the first few hundred thousand lines; past that, memory must not grow.
  const growth = (peaks[2] as number) / (peaks[1] as number);
  figure("load peak RSS, 3M lines / 1M lines", `${growth.toFixed(2)}x`, growth <= 1.1);
}

/** Every page of a report, in order, read until `budgetMs` has passed after the first (then extrapolated). */
export interface Paging {
  firstMs: number;
  pages: number;
  /** Pages actually read, the first included. */
  read: number;
  /** All pages' ms: measured when every page was read, else first + the mean later page x the pages left. */
  allMs: number;
  /** The mean later page. */
  pageMs: number;
  /**
   * The floor (issue 35): the mean page of the same loop asking `serve` again for the last page it read, which
   * it answers from its own page cache: the same client, bytes, connection, key checks and route, none of
   * the page's making. It moves with the machine as the pages do, where a bare route answering from memory
   * in another process did not (0.73 ms a page on a quiet machine against serve's 3.3 ms: 4.45x).
   */
  cachedMs: number;
  /**
   * CPU milliseconds a later page and a cached page cost `serve` and this client together (with `serverPid`):
   * what the wall figures come to on a machine with nothing else to run.
   */
  pageCpuMs?: number;
  cachedCpuMs?: number;
}

/** CPU milliseconds (user + system) so far of a process of this machine, and of this one. */
function cpuMs(pid: number | undefined): number {
  const own = process.cpuUsage();
  const self = (own.user + own.system) / 1000;
  if (pid === undefined) return Number.NaN;
  // Fields 14 and 15 of /proc/PID/stat, after the command's name in parentheses: clock ticks of 10 ms.
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8")
    .replace(/^.*\) /, "")
    .split(" ");
  return self + (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Reads pages `from`..`to` of `target` as text, one after the other on one keep-alive client; false to stop early. */
async function readPages(target: (page: number) => string, key: string, from: number, more: (page: number) => boolean) {
  let last = "";
  let page = from;
  for (; more(page); page += 1) {
    const response = await fetch(target(page), { headers: { authorization: `Bearer ${key}` } });
    last = await response.text();
    if (response.status !== 200) throw new Error(`${target(page)}: ${response.status}`);
  }
  return { last, read: page - from };
}

/** Pages of the cached-page floor, after a warm-up of a fifth as many. */
const CACHED_PAGES = 400;

/**
 * `query` without `page` and `limit`; pages of 1,000 rows, read in order for `budgetMs` after the first.
 * `hooks` run once the first page is read and once the later pages are (a backend's own statistics of them).
 */
export async function measurePaging(
  base: string,
  key: string,
  query: Record<string, string>,
  budgetMs: number,
  hooks: { afterFirst?: () => Promise<void>; afterPaging?: () => Promise<void>; serverPid?: number } = {},
): Promise<Paging> {
  const target = (page: number) =>
    `${base}/v1/report?${new URLSearchParams({ ...query, limit: "1000", page: String(page) })}`;
  const started = performance.now();
  const first = await getJson(target(1), key);
  const firstMs = performance.now() - started;
  const pages = Math.ceil(first.meta.total / 1000);
  await hooks.afterFirst?.();
  const laterStarted = performance.now();
  const laterCpu = cpuMs(hooks.serverPid);
  // The rest are read as text: the service's work is measured, not this script's JSON parsing.
  const later = await readPages(target, key, 2, (n) => n <= pages && performance.now() - laterStarted < budgetMs);
  const read = 1 + later.read;
  const laterMs = performance.now() - laterStarted;
  const pageCpuMs = (cpuMs(hooks.serverPid) - laterCpu) / Math.max(1, later.read);
  const pageMs = later.read > 0 ? laterMs / later.read : 0;
  const allMs = read === 1 ? firstMs : firstMs + pageMs * (pages - 1);
  await hooks.afterPaging?.();
  const again = () => target(read);
  await readPages(again, key, 0, (n) => n < CACHED_PAGES / 5); // warm-up: the JIT of the cached path and this client
  const cachedStarted = performance.now();
  const cachedCpu = cpuMs(hooks.serverPid);
  await readPages(again, key, 0, (n) => n < CACHED_PAGES);
  const cachedMs = (performance.now() - cachedStarted) / CACHED_PAGES;
  const cachedCpuMs = (cpuMs(hooks.serverPid) - cachedCpu) / CACHED_PAGES;
  return { firstMs, pages, read, allMs, pageMs, cachedMs, pageCpuMs, cachedCpuMs };
}

/** Milliseconds of one page of a report no one asked for before (page 400 first, say). */
export async function measureOnePage(
  base: string,
  key: string,
  query: Record<string, string>,
  page: number,
): Promise<number> {
  const target = `${base}/v1/report?${new URLSearchParams({ ...query, limit: "1000", page: String(page) })}`;
  return await timeAsync(() => getJson(target, key));
}
