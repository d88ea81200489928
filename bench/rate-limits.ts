/**
 * `npm run bench -- rate-limits`: the figures of issue 26, from outside. The built CLI exports a 60-page
 * report at --concurrency 8 from a service limited to 20 requests a second per key: `serve --rate-limit 20/s`
 * (a token bucket) and bench/rate-service.ts (GCRA, another make), each with and without the RateLimit
 * fields; then two processes of one key at once. Each line: answers 429 (from --summary json) and the time
 * against the ideal (pages / rate, start-up included).
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { keptDatabase, WORK } from "./data";
import { BIN, cli, ensureBuilt, figure } from "./lib";
import { startRateService } from "./rate-service";
import { quietServers, startServe } from "./serve-process";

const RATE = 20;
const PAGES = 60;
const DEMO = join(WORK, "rate-demo.db");
const QUERY = ["--from", "2026-10-01", "--to", "2026-10-14", "--dims", "ad,date", "--granularity", "hour"];

interface Run {
  ms: number;
  requests: number;
  throttled: number;
}

function exportOnce(url: string, key: string, pageSize: number, config: string): Promise<Run> {
  const summary = join(config, `summary-${Math.random().toString(36).slice(2)}.json`);
  const args = [BIN, "report", ...QUERY, "--page-size", String(pageSize), "--concurrency", "8", "-q"];
  args.push("--format", "ndjson", "--summary-file", summary, "--retries", "10");
  const env = { ...process.env, ADREPORT_CONFIG_DIR: config, ADREPORT_API_KEY: key, ADREPORT_BASE_URL: url };
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("close", (code) => {
      const ms = performance.now() - started;
      if (code !== 0) return reject(new Error(`report exited ${code}: ${stderr}`));
      const { requests, throttled } = JSON.parse(readFileSync(summary, "utf8")) as Run;
      resolve({ ms, requests, throttled });
    });
  });
}

function ensureDemo(): string {
  mkdirSync(WORK, { recursive: true });
  if (!keptDatabase(DEMO)) cli(["serve", "demo", "--db", DEMO, "--days", "35", "--end", "2026-11-01"]);
  return cli(["serve", "key", "issue", "--db", DEMO, "--advertiser", "Acme Outdoor", "--ip", "127.0.0.1"])
    .trim()
    .split("\n")[0] as string;
}

async function measure(label: string, url: string, key: string, pageSize: number, headers: boolean) {
  const config = mkdtempSync(join(WORK, "rate-config-"));
  try {
    const ideal = (PAGES / RATE) * 1000;
    const one = await exportOnce(url, key, pageSize, config);
    const share = one.throttled / one.requests;
    const singleOk = headers ? one.throttled <= 2 && one.ms <= 1.25 * ideal : share <= 0.15 && one.ms <= 1.6 * ideal;
    figure(
      `${label}: one export, 429s / time vs ideal`,
      `${one.throttled} of ${one.requests} (${(share * 100).toFixed(0)}%) / ${(one.ms / ideal).toFixed(2)}x (goal ${headers ? "<= 2 / 1.25x" : "<= 15% / 1.6x"})`,
      singleOk,
    );
    await new Promise((resolve) => setTimeout(resolve, 3500)); // the bucket fills up again
    const started = performance.now();
    const [a, b] = await Promise.all([exportOnce(url, key, pageSize, config), exportOnce(url, key, pageSize, config)]);
    const ms = performance.now() - started;
    const throttled = a.throttled + b.throttled;
    const requests = a.requests + b.requests;
    figure(
      `${label}: two processes of one key, 429s / time vs ideal`,
      `${throttled} of ${requests} / ${(ms / (2 * ideal)).toFixed(2)}x${headers ? " (goal <= 6 / 1.35x)" : ""}`,
      headers ? throttled <= 6 && ms <= 1.35 * 2 * ideal : undefined,
    );
  } finally {
    rmSync(config, { recursive: true, force: true });
  }
}

export async function benchRateLimits(): Promise<void> {
  ensureBuilt();
  quietServers();
  console.log(`rate limits: a ${PAGES}-page export at --concurrency 8 against ${RATE} requests a second per key`);
  const key = ensureDemo();
  for (const headers of [true, false]) {
    const serve = await startServe(DEMO, [
      "--rate-limit",
      `${RATE}/s`,
      ...(headers ? [] : ["--rate-limit-headers", "none"]),
    ]);
    try {
      const total = await totalRows(serve.url, key);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      await measure(
        `serve --rate-limit, ${headers ? "fields" : "no fields"}`,
        serve.url,
        key,
        Math.ceil(total / PAGES),
        headers,
      );
    } finally {
      await serve.stop();
    }
  }
  for (const headers of [true, false]) {
    const service = await startRateService({ rate: RATE, headers, entities: 100 });
    try {
      const total = await totalRows(service.url, key);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      await measure(
        `GCRA service, ${headers ? "fields" : "no fields"}`,
        service.url,
        key,
        Math.ceil(total / PAGES),
        headers,
      );
    } finally {
      await service.close();
    }
  }
}

/** The report's rows, from one page's `meta.total`. */
async function totalRows(url: string, key: string): Promise<number> {
  const query = new URLSearchParams({
    from: "2026-10-01",
    to: "2026-10-14",
    dimensions: "ad,date",
    granularity: "hour",
    metrics: "views",
    limit: "1",
  });
  const response = await fetch(`${url}/v1/report?${query}`, { headers: { authorization: `Bearer ${key}` } });
  const body = (await response.json()) as { meta: { total: number } };
  return body.meta.total;
}
