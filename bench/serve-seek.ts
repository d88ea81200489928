/**
 * `serve` pages a large report by seeking (issue 23): an ad,date hourly report over 21 days (about 630k rows,
 * 630 pages of 1000) on the 5,000-ad data set. Its first page, every page against the first, and page 400
 * asked first, each on a report not asked before; then the client's 1M-row CSV export against a default
 * `serve`. seekFigures() is also run on PostgreSQL by the serve-postgres benchmark.
 */
import { BIG_DB, ensureBigDb, issueBenchKey } from "./data";
import { BIN, ensureBuilt, figure, measureCommand, median, timeAsync } from "./lib";
import { startServe } from "./serve-process";

const METRICS = "views,clicks,spending,conversions";

/** The 21-day hourly report, ending k hours early: the same work, never answered from a cache. */
function hourly(k: number, page: number): URLSearchParams {
  return new URLSearchParams({
    from: "2026-10-11",
    to: `2026-10-31T${String(23 - k).padStart(2, "0")}:59:59Z`,
    metrics: METRICS,
    dimensions: "ad,date",
    granularity: "hour",
    limit: "1000",
    page: String(page),
  });
}

async function getText(url: string, key: string): Promise<string> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${text}`);
  return text;
}

/** First page, all pages / first page, page 400 first: `k0` picks reports no other run asked. */
export async function seekFigures(name: string, base: string, key: string, k0: number): Promise<void> {
  const page = (k: number, n: number) => getText(`${base}/v1/report?${hourly(k, n)}`, key);
  const firsts: number[] = [];
  let total = 0;
  for (let k = k0; k < k0 + 3; k += 1) {
    firsts.push(
      await timeAsync(async () => (total = (JSON.parse(await page(k, 1)) as { meta: { total: number } }).meta.total)),
    );
  }
  const first = median(firsts);
  figure(
    `${name}: first page of ad,date hourly, 21 days, ${total} rows (median of 3)`,
    `${first.toFixed(0)} ms`,
    first <= 250,
  );

  const pages = Math.ceil(total / 1000);
  let firstMs = 0;
  const allMs = await timeAsync(async () => {
    firstMs = await timeAsync(() => page(k0 + 3, 1));
    for (let n = 2; n <= pages; n += 1) await page(k0 + 3, n);
  });
  figure(
    `${name}: all ${pages} pages / first page`,
    `${(allMs / firstMs).toFixed(1)}x (${(allMs / 1000).toFixed(2)} s, ${((allMs - firstMs) / (pages - 1)).toFixed(2)} ms a page)`,
    allMs / firstMs <= 3,
  );

  const outOfOrder: number[] = [];
  for (let k = k0 + 4; k < k0 + 7; k += 1) outOfOrder.push(await timeAsync(() => page(k, 400)));
  const p400 = median(outOfOrder);
  figure(
    `${name}: page 400 asked first (median of 3)`,
    `${p400.toFixed(0)} ms  ${(p400 / first).toFixed(2)}x the first page`,
    p400 <= 1.5 * first,
  );
}

export async function benchServeSeek(): Promise<void> {
  ensureBuilt();
  ensureBigDb();
  const key = issueBenchKey();
  const server = await startServe(BIG_DB);
  try {
    await seekFigures("SQLite", server.url, key, 0);
    // The client's 1M-row CSV export (hourly ad rows over 35 days) against this default serve, first run.
    const env = {
      ADREPORT_API_KEY: key,
      ADREPORT_BASE_URL: server.url,
      ADREPORT_CONFIG_DIR: "/nonexistent-adreport-bench",
    };
    const args = ["report", "--from", "2026-09-27T00:00:00Z", "--to", "2026-10-31T23:59:59Z", "--metrics", METRICS];
    const run = measureCommand(
      process.execPath,
      [BIN, ...args, "--dims", "ad,date", "--granularity", "hour", "--format", "csv"],
      env,
    );
    figure(
      "CSV export of about 1M rows against a default serve",
      `${run.seconds.toFixed(1)} s, client peak RSS ${run.peakMb.toFixed(0)} MB`,
      run.peakMb <= 96,
    );
  } finally {
    await server.stop();
  }
}
