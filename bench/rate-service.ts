/**
 * "A service of a different make with its own bucket", for the client-pacing benchmark: a plain node:http
 * server (not our fastify `serve`) answering /v1/report with synthetic pages (rate-service-pages.ts), rate
 * limited per key by GCRA (the generic cell rate algorithm: one theoretical arrival time per key, no token
 * count) rather than serve's token bucket. Its details differ from `serve --rate-limit` on purpose:
 * - any bearer token is a key (no key store); none is 401;
 * - `Retry-After` is an HTTP date by default (`retryAfter: "seconds"` for delay-seconds);
 * - the RateLimit fields are off by default; with `headers: true` they name the policy "gcra", and `t` is
 *   the seconds until the key's whole burst is back (not until the next request is);
 * - the burst defaults to one second's worth of the rate, and a 429 is JSON of the contract's shape.
 *
 * Standalone: `npx tsx bench/rate-service.ts --rate 10 [--burst 10] [--headers] [--retry-after seconds]
 * [--port 8090] [--entities 20] [--delay-ms 0]` prints its URL; Ctrl-C prints the counts and stops.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { reportPage } from "./rate-service-pages";

export interface RateServiceOptions {
  /** Requests a second each key may make, sustained. */
  rate: number;
  /** Requests a key may make at once (default: one second's worth of `rate`, at least 1). */
  burst?: number;
  /** Send RateLimit-Policy / RateLimit (default false: only the 429 and Retry-After). */
  headers?: boolean;
  /** How Retry-After is written (default "date"). */
  retryAfter?: "date" | "seconds";
  /** Campaigns, ads or keywords of each report (default 20). */
  entities?: number;
  /** Milliseconds each 200 waits before it is sent, as a real service's query time (default 0). */
  delayMs?: number;
  host?: string;
  port?: number;
  /** The monotonic clock (ms) the limit runs on; the HTTP date always comes from Date.now. */
  nowMs?: () => number;
}

export interface RateServiceCounts {
  requests: number;
  ok: number;
  throttled: number;
  other: number;
}

export interface RateService {
  url: string;
  counts: RateServiceCounts;
  close(): Promise<void>;
}

/** Keys whose arrival times are kept at most; the oldest inserted goes first. */
const MAX_KEYS = 10_000;

function json(status: number, code: string, message: string): string {
  return JSON.stringify({ error: { status, code, message } });
}

export async function startRateService(options: RateServiceOptions): Promise<RateService> {
  const interval = 1000 / options.rate;
  const burst = options.burst ?? Math.max(1, Math.floor(options.rate));
  const tolerance = (burst - 1) * interval;
  const now = options.nowMs ?? (() => performance.now());
  const arrivals = new Map<string, number>();
  const counts: RateServiceCounts = { requests: 0, ok: 0, throttled: 0, other: 0 };
  const policy = `"gcra";q=${burst};w=${Math.max(1, Math.ceil(burst / options.rate))}`;

  const server = createServer((req, res) => {
    counts.requests += 1;
    const url = new URL(req.url ?? "/", "http://rate.local");
    const key = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
    if (url.pathname !== "/v1/report" || key === undefined) {
      counts.other += 1;
      const status = key === undefined && url.pathname === "/v1/report" ? 401 : 404;
      res.writeHead(status, { "content-type": "application/json" });
      res.end(json(status, status === 401 ? "missing_key" : "not_found", status === 401 ? "no key" : "no such path"));
      return;
    }
    const at = now();
    const tat = Math.max(arrivals.get(key) ?? at, at);
    const allowed = tat - at <= tolerance;
    const nextTat = allowed ? tat + interval : tat;
    arrivals.delete(key);
    arrivals.set(key, nextTat);
    if (arrivals.size > MAX_KEYS) arrivals.delete(arrivals.keys().next().value as string);
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (options.headers) {
      const left = Math.max(0, Math.floor((tolerance - (nextTat - at)) / interval + 1e-9) + 1);
      headers["ratelimit-policy"] = policy;
      headers.ratelimit = `"gcra";r=${left};t=${Math.ceil(Math.max(0, nextTat - at) / 1000)}`;
    }
    if (!allowed) {
      counts.throttled += 1;
      const waitMs = tat - tolerance - at;
      headers["retry-after"] =
        options.retryAfter === "seconds"
          ? String(Math.max(1, Math.ceil(waitMs / 1000)))
          : new Date(Math.ceil((Date.now() + waitMs) / 1000) * 1000).toUTCString();
      res.writeHead(429, headers);
      res.end(json(429, "rate_limited", "slow down"));
      return;
    }
    const page = reportPage(url.searchParams, options.entities ?? 20);
    if (page.status === 200) counts.ok += 1;
    else counts.other += 1;
    const send = () => {
      res.writeHead(page.status, headers);
      res.end(page.body);
    };
    if (options.delayMs) setTimeout(send, options.delayMs);
    else send();
  });
  await new Promise<void>((done) => server.listen(options.port ?? 0, options.host ?? "127.0.0.1", done));
  const address = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? "127.0.0.1"}:${address.port}`,
    counts,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rate: { type: "string", default: "10" },
      burst: { type: "string" },
      headers: { type: "boolean", default: false },
      "retry-after": { type: "string", default: "date" },
      port: { type: "string", default: "0" },
      entities: { type: "string", default: "20" },
      "delay-ms": { type: "string", default: "0" },
    },
  });
  const service = await startRateService({
    rate: Number(values.rate),
    burst: values.burst === undefined ? undefined : Number(values.burst),
    headers: values.headers,
    retryAfter: values["retry-after"] === "seconds" ? "seconds" : "date",
    port: Number(values.port),
    entities: Number(values.entities),
    delayMs: Number(values["delay-ms"]),
  });
  console.log(service.url);
  process.once("SIGINT", () => {
    console.error(JSON.stringify(service.counts));
    void service.close().then(() => process.exit(0));
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) void main();
