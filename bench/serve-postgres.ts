/**
 * `serve` on PostgreSQL against `serve` on SQLite (issue 18), the same 5,000 ads x 90 days in both: the
 * first page of a 90-day campaign,date report, throughput with 32 connections on a small report, and
 * paging a large report (issue 23).
 * PostgreSQL is a throwaway cluster of Debian's binaries (test/helpers/postgres-cluster.ts, fsync off),
 * on this machine, loaded once per run through `serve demo --db postgres://...`.
 */
import autocannon from "autocannon";

import { ADVERTISER, BIG_DB, DATA, ensureBigDb } from "./data";
import { BIN, cli, ensureBuilt, figure, median, timeAsync, timeCommand } from "./lib";
import type { PgOwnTime } from "./pg-own-time";
import { startBenchCluster } from "./postgres-cluster";
import { type ServerProcess, startServe } from "./serve-process";
import { seekFigures } from "./serve-seek";

/** The 90-day range of the data set, ending k hours early: the same work, never served from a cache. */
function range(k: number): { from: string; to: string } {
  return { from: "2026-08-03", to: `2026-10-31T${String(23 - k).padStart(2, "0")}:59:59Z` };
}

async function get(url: string, key: string): Promise<{ meta: { total: number } }> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { meta: { total: number } };
}

export interface Side {
  name: string;
  server: ServerProcess;
  key: string;
}

async function throughput(side: Side, target: string, duration: number): Promise<number> {
  const result = await autocannon({
    url: `${side.server.url}${target}`,
    connections: 32,
    duration,
    headers: { authorization: `Bearer ${side.key}` },
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${side.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

/** `serve` on each of the SQLite file and the PostgreSQL database holding the same data: [SQLite, PostgreSQL]. */
export async function startSides(pgUrl: string, sqliteDb: string): Promise<[Side, Side]> {
  const issue = (db: string) =>
    cli(["serve", "key", "issue", "--db", db, "--advertiser", ADVERTISER, "--ip", "127.0.0.1"]).trim();
  const [liteKey, pgKey] = [issue(sqliteDb), issue(pgUrl)]; // before serve opens the file, so it reopens nothing
  const lite = { name: "SQLite", server: await startServe(sqliteDb), key: liteKey };
  try {
    return [lite, { name: "PostgreSQL", server: await startServe(pgUrl), key: pgKey }];
  } catch (error) {
    await lite.server.stop();
    throw error;
  }
}

/** Median ms of the first page of the 90-day campaign,date report on each side, a fresh query each run, interleaved. */
export async function measureFirstPages(
  sides: readonly Side[],
  runs: number,
  own?: { side: number; time: PgOwnTime; ms: number[] },
  warmUps = 0,
): Promise<number[]> {
  const metrics = "views,clicks,spending,conversions";
  const firsts = sides.map((): number[] => []);
  // Fresh reports too (ending later than any measured), so the code paths of each side are compiled.
  for (let k = runs; k < runs + warmUps; k += 1) {
    for (const side of sides) {
      const params = new URLSearchParams({ ...range(k), metrics, dimensions: "campaign,date", limit: "1000" });
      await get(`${side.server.url}/v1/report?${params}`, side.key);
    }
  }
  for (let k = 0; k < runs; k += 1) {
    for (const [i, side] of sides.entries()) {
      const params = new URLSearchParams({ ...range(k), metrics, dimensions: "campaign,date", limit: "1000" });
      if (own?.side === i) await own.time.reset();
      firsts[i]?.push(await timeAsync(() => get(`${side.server.url}/v1/report?${params}`, side.key)));
      if (own?.side === i) own.ms.push(await own.time.ms());
    }
  }
  return firsts.map((values) => median(values));
}

/** Median req/s with 32 connections on the 7-day total on each side: a warm-up, then `runs` runs interleaved. */
export async function measureThroughput(sides: readonly Side[], seconds: number, runs: number): Promise<number[]> {
  const small = `/v1/report?${new URLSearchParams({ from: "2026-10-25", to: "2026-10-31", metrics: "views,clicks,spending" })}`;
  for (const side of sides) await throughput(side, small, seconds);
  const rps = sides.map((): number[] => []);
  for (let run = 0; run < runs; run += 1) {
    for (const [i, side] of sides.entries()) rps[i]?.push(await throughput(side, small, seconds));
  }
  return rps.map((values) => median(values));
}

export async function benchServePostgres(): Promise<void> {
  ensureBuilt();
  ensureBigDb();
  const cluster = await startBenchCluster();
  if (typeof cluster === "string") {
    console.log(`  skipped: ${cluster}`);
    return;
  }
  const sides: Side[] = [];
  try {
    console.log("  (loading the data set into PostgreSQL: a few minutes)");
    const url = await cluster.createDatabase("bench");
    const loadMs = timeCommand(process.execPath, [BIN, "serve", "demo", "--db", url, ...DATA]);
    figure("serve demo into PostgreSQL, about 5.4M hourly rows", `${(loadMs / 1000).toFixed(0)} s`);
    sides.push(...(await startSides(url, BIG_DB)));

    // 1. First page of the 90-day campaign,date report, a fresh query each run, the two interleaved.
    const metrics = "views,clicks,spending,conversions";
    const [liteFirst, pgFirst] = (await measureFirstPages(sides, 7)) as [number, number];
    figure("SQLite: first page, 90-day campaign,date (median of 7)", `${liteFirst.toFixed(1)} ms`);
    figure(
      "PostgreSQL: the same",
      `${pgFirst.toFixed(1)} ms  ${(pgFirst / liteFirst).toFixed(2)}x SQLite`,
      pgFirst / liteFirst <= 2,
    );

    // 2. Throughput with 32 connections on a small report (the serve benchmark's), each warmed up first.
    const [l, p] = (await measureThroughput(sides, 5, 2)) as [number, number];
    figure("SQLite: 7-day total, 32 connections (2 runs of 5 s)", `${Math.round(l)} req/s`);
    figure("PostgreSQL: the same", `${Math.round(p)} req/s  ${(p / l).toFixed(2)}x SQLite`, p / l >= 1 / 1.5);

    // 3. Every page of a 225-page report (ad,date daily) against its first page: each page is its own query.
    for (const side of sides) {
      const params = (page: number) =>
        new URLSearchParams({ ...range(9), metrics, dimensions: "ad,date", limit: "1000", page: String(page) });
      let firstMs = 0;
      const totalMs = await timeAsync(async () => {
        const started = performance.now();
        const first = await get(`${side.server.url}/v1/report?${params(1)}`, side.key);
        firstMs = performance.now() - started;
        for (let page = 2; page <= Math.ceil(first.meta.total / 1000); page += 1) {
          await get(`${side.server.url}/v1/report?${params(page)}`, side.key);
        }
      });
      figure(
        `${side.name}: all pages of ad,date daily / first page`,
        `${(totalMs / firstMs).toFixed(2)}x (${(totalMs / 1000).toFixed(1)} s)`,
      );
    }

    // 4. The 21-day hourly report (630 pages) paged by seeking, on each side (bench/serve-seek.ts).
    for (const side of sides) await seekFigures(side.name, side.server.url, side.key, 12);
  } finally {
    for (const side of sides) await side.server.stop();
    cluster.stop();
  }
}
