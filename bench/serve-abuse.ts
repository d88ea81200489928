/**
 * `serve` under a key holder who tries to grow its memory: for a bounded time, distinct valid queries
 * that each would be a new cache entry if the cache were keyed by the query string (zero-padded `page=`),
 * `__proto__`-padded queries, many distinct empty reports, many distinct real reports and full pages of a
 * large one. Samples the process's VmRSS and prints the peak against `--cache-mb` plus the fixed margin the
 * README documents, at `--cache-mb` 8 and at the default 64.
 */
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { WORK } from "./data";
import { cli, ensureBuilt, figure } from "./lib";
import { startServe } from "./serve-process";

const SECONDS = 60;
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

export interface AbuseFigures {
  requests: number;
  statuses: Map<number, number>;
  startRss: number;
  peak: number;
}

/** `serve --cache-mb cacheMb` flooded for `seconds` by the hostile queries: its RSS after start and at peak, MB. */
export async function measureServeAbuse(seconds: number, cacheMb: number): Promise<AbuseFigures> {
  mkdirSync(WORK, { recursive: true });
  const db = join(WORK, "serve-abuse.db");
  rmSync(db, { force: true });
  const data = ["--advertisers", "2", "--campaigns", "5", "--ads", "10", "--days", "45", "--end", "2026-11-01"];
  cli(["serve", "demo", "--db", db, ...data]);
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
  const deadline = performance.now() + seconds * 1000;
  try {
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async (_, worker) => {
        for (let n = worker; performance.now() < deadline; n += CONNECTIONS) {
          const kind = KINDS[n % KINDS.length] as (n: number) => string;
          const response = await fetch(`${server.url}/v1/report?${kind(Math.floor(n / KINDS.length))}`, {
            headers: { authorization: `Bearer ${key}` },
          });
          await response.arrayBuffer();
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          requests += 1;
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
  for (const cacheMb of CACHE_MBS) {
    console.log(
      `demo data set: 2 advertisers x 50 ads, 45 days; ${CONNECTIONS} connections for ${SECONDS} s, --cache-mb ${cacheMb}`,
    );
    const { requests, statuses, startRss, peak } = await measureServeAbuse(SECONDS, cacheMb);
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
