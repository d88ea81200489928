/**
 * `serve` under two floods, each for a bounded time, sampling the process's VmRSS and printing the peak
 * against `--cache-mb` plus the fixed margin docs/serve.md documents, at `--cache-mb` 8 and at the default 64:
 * - hostile: a key holder who tries to grow its memory with distinct valid queries that each would be a new
 *   cache entry if the cache were keyed by the query string (zero-padded `page=`), `__proto__`-padded
 *   queries, many distinct empty reports, many distinct real reports and full pages of a large one;
 * - varied: clients asking what real clients ask, each report a new one: hourly `ad,date` reports above all,
 *   and other dimensions and granularities, ranges from an hour to 44 days, any metrics in any order, limits
 *   from 10 to 1,000, a page here and there or pages read in order (which `serve` reads ahead).
 */
import { mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { seededRandom } from "../src/server/seeded-random";
import { keptDatabase, WORK } from "./data";
import { cli, ensureBuilt, figure } from "./lib";
import { startServe } from "./serve-process";

const SECONDS = 60;
/** The varied flood: long enough for `serve`'s memory to settle where a client keeps it (it rose for 30 s). */
export const VARIED_SECONDS = 40;
const CONNECTIONS = 8;
const CACHE_MBS = [8, 64];
/** What `serve` holds besides its caches (README, serve section): Node, fastify, SQLite's page caches. */
export const MARGIN_MB = 90;

function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

function isoHour(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().replace(".000Z", "Z");
}

/** The n-th hostile query of each kind, all of them valid except the `__proto__` ones (refused with 400). */
const KINDS: Array<(n: number) => string> = [
  // The same report page, spelled with ever more zeros: one entry when keyed by the parsed query.
  (n) => `from=2026-10-01&to=2026-10-31&metrics=views&dimensions=campaign&page=${"0".repeat(n % 12_000)}1`,
  // A distinct page each time, past the end: an empty body, each a real entry.
  (n) => `from=2026-10-01&to=2026-10-31&metrics=views&dimensions=ad&limit=1&page=${1000 + n}`,
  // 15 KB of padding in a parameter that was silently ignored.
  (n) => `from=2026-10-01&to=2026-10-31&metrics=views&__proto__=${n}${"x".repeat(15_000)}`,
  // A distinct empty report each time: a range with no data, one hour longer every time.
  (n) =>
    `from=2020-01-01&to=${isoHour(Date.UTC(2020, 0, 1) / 1000 + (n % 2000) * 3600)}&metrics=views&dimensions=campaign&page=${1 + Math.floor(n / 2000)}`,
  // A distinct real report each time: a range ending one second later.
  (n) =>
    `from=2026-09-20&to=${isoHour(Date.UTC(2026, 9, 20) / 1000 + n)}&metrics=views,clicks&dimensions=ad,date&granularity=hour&limit=5`,
  // Full pages of a large report, each rendered page a cache entry of its own (about 150 KB).
  (n) =>
    `from=2026-09-01&to=2026-10-14&metrics=views,clicks,spending&dimensions=ad,date&granularity=hour&limit=1000&page=${1 + (n % 60)}`,
];

const DATA_FROM = Date.UTC(2026, 8, 17) / 1000;
const DATA_END = Date.UTC(2026, 10, 1) / 1000;
const HOUR = 3600;
const METRICS = ["views", "clicks", "spending", "conversions"];
/** Hourly `ad,date` above all, as the exports that page through `serve` most ask. */
const SHAPES: Array<[dimensions: string, granularity: string]> = [
  ["ad,date", "hour"],
  ["ad,date", "hour"],
  ["ad,date", "hour"],
  ["ad,date", "day"],
  ["campaign,date", "hour"],
  ["campaign,date", "week"],
  ["ad,date", "month"],
  ["date", "hour"],
  ["date", "day"],
  ["ad", "day"],
  ["campaign", "day"],
  ["keyword", "day"],
];
const LIMITS = [10, 50, 100, 250, 500, 1000, 1000, 1000];

/** A report a real client might ask, new each time: its shape, range and metrics drawn by `random`. */
function variedReport(random: () => number): URLSearchParams {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const [dimensions, granularity] = pick(SHAPES);
  const hours = (DATA_END - DATA_FROM) / HOUR;
  const from = DATA_FROM + Math.floor(random() * (hours - 1)) * HOUR;
  const to = Math.min(DATA_END, from + (1 + Math.floor(random() * 44 * 24)) * HOUR) - 1;
  const offered = dimensions === "keyword" ? METRICS.filter((m) => m !== "conversions") : METRICS;
  const metrics = offered.filter(() => random() < 0.6).sort(() => random() - 0.5);
  return new URLSearchParams({
    from: isoHour(from),
    to: new Date(to * 1000).toISOString().replace(".000Z", "Z"),
    metrics: (metrics.length > 0 ? metrics : [pick(offered)]).join(","),
    dimensions,
    granularity,
    limit: String(pick(LIMITS)),
  });
}

/** One client of the varied flood: a report's pages in order (up to 5) a third of the time, else one page. */
async function variedClient(url: string, key: string, random: () => number, send: Send, deadline: number) {
  while (performance.now() < deadline) {
    const report = variedReport(random);
    const inOrder = random() < 1 / 3;
    const pages = inOrder ? 5 : 1;
    for (let page = inOrder ? 1 : 1 + Math.floor(random() * random() * 20), n = 0; n < pages; page += 1, n += 1) {
      report.set("page", String(page));
      const body = await send(`${url}/v1/report?${report}`, key);
      if (performance.now() >= deadline || !body?.includes('"has_more":true')) break;
    }
  }
}

type Send = (url: string, key: string) => Promise<string | undefined>;

export type Flood = "hostile" | "varied";

export interface AbuseFigures {
  requests: number;
  statuses: Map<number, number>;
  startRss: number;
  peak: number;
}

/** `serve --cache-mb cacheMb` flooded for `seconds` by the hostile queries: its RSS after start and at peak, MB. */
/** The demo data set of both floods, made once into .bench/ (it is the same every time). */
function abuseDb(): string {
  mkdirSync(WORK, { recursive: true });
  const db = join(WORK, "serve-abuse.db");
  if (keptDatabase(db)) return db;
  rmSync(`${db}.tmp`, { force: true });
  const data = ["--advertisers", "2", "--campaigns", "5", "--ads", "10", "--days", "45", "--end", "2026-11-01"];
  cli(["serve", "demo", "--db", `${db}.tmp`, ...data]);
  renameSync(`${db}.tmp`, db);
  return db;
}

/** `serve --cache-mb cacheMb` under a flood for `seconds`: its RSS after start and at peak, MB. */
export async function measureServeAbuse(
  seconds: number,
  cacheMb: number,
  flood: Flood = "hostile",
): Promise<AbuseFigures> {
  const db = abuseDb();
  const key = cli(["serve", "key", "issue", "--db", db, "--advertiser", "Acme Outdoor", "--ip", "127.0.0.1"]).trim();
  const server = await startServe(db, ["--cache-mb", String(cacheMb)]);
  const pid = server.child.pid as number;
  const statuses = new Map<number, number>();
  let requests = 0;
  let peak = 0;
  const startRss = rssMb(pid);
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb(pid));
  }, 250);
  const send: Send = async (url, key) => {
    const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
    let body: string | undefined;
    if (flood === "varied") body = await response.text();
    else await response.arrayBuffer();
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    requests += 1;
    return body;
  };
  const deadline = performance.now() + seconds * 1000;
  try {
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async (_, worker) => {
        if (flood === "varied") return variedClient(server.url, key, seededRandom(worker + 1), send, deadline);
        for (let n = worker; performance.now() < deadline; n += CONNECTIONS) {
          const kind = KINDS[n % KINDS.length] as (n: number) => string;
          await send(`${server.url}/v1/report?${kind(Math.floor(n / KINDS.length))}`, key);
        }
      }),
    );
    peak = Math.max(peak, rssMb(pid));
  } finally {
    clearInterval(sampler);
    await server.stop();
  }
  return { requests, statuses, startRss, peak };
}

export async function benchServeAbuse(): Promise<void> {
  ensureBuilt();
  for (const [flood, seconds] of [
    ["hostile", SECONDS],
    ["varied", VARIED_SECONDS],
  ] as const) {
    for (const cacheMb of CACHE_MBS) {
      console.log(
        `demo data set: 2 advertisers x 50 ads, 45 days; the ${flood} flood, ${CONNECTIONS} connections for ${seconds} s, --cache-mb ${cacheMb}`,
      );
      const { requests, statuses, startRss, peak } = await measureServeAbuse(seconds, cacheMb, flood);
      const answered = [...statuses].map(([status, count]) => `${status}: ${count}`).join(", ");
      figure("requests", `${requests} (${answered})`);
      figure("RSS of serve after start", `${startRss.toFixed(0)} MB`);
      figure(
        `peak RSS of serve, against --cache-mb ${cacheMb} + ${MARGIN_MB} MB`,
        `${peak.toFixed(0)} MB`,
        peak <= cacheMb + MARGIN_MB,
      );
    }
  }
}
