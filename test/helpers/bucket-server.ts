/**
 * A report service on 127.0.0.1 with a token bucket per key, of another make than `serve`: `rate` tokens a
 * second up to `burst`; a request without a token is answered 429 `rate_limited` with Retry-After in whole
 * seconds. With `headers: "ietf"` every answer carries RateLimit-Policy and RateLimit (draft-ietf-httpapi-
 * ratelimit-headers); with `"none"`, only the 429 says anything. It keeps when each request came and how it
 * was answered. No vitest here: bench/pace.ts uses it too.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface BucketServerOptions {
  rate: number;
  burst: number;
  headers: "ietf" | "none";
  /** Rows of the report; pages are cut by the request's limit. */
  rows: number;
  /** A Retry-After to send on every 429 instead of the bucket's own (a daily quota, say), and its code. */
  retryAfter?: { seconds: number; code: string } | undefined;
  now?: () => number;
}

export interface Arrival {
  at: number;
  key: string;
  status: number;
}

export interface BucketServer {
  url: string;
  arrivals: Arrival[];
  /** Changes how the service answers from the next request on (the same service, another policy). */
  configure(change: Partial<Pick<BucketServerOptions, "rate" | "burst" | "headers">>): void;
  close(): Promise<void>;
}

export async function startBucketServer(given: BucketServerOptions): Promise<BucketServer> {
  const options = { ...given };
  const now = options.now ?? (() => performance.timeOrigin + performance.now());
  const buckets = new Map<string, { tokens: number; at: number }>();
  const arrivals: Arrival[] = [];
  const take = (key: string): { ok: boolean; tokens: number } => {
    const t = now();
    const bucket = buckets.get(key) ?? { tokens: options.burst, at: t };
    bucket.tokens = Math.min(options.burst, bucket.tokens + ((t - bucket.at) / 1000) * options.rate);
    bucket.at = t;
    buckets.set(key, bucket);
    if (bucket.tokens < 1) return { ok: false, tokens: bucket.tokens };
    bucket.tokens -= 1;
    return { ok: true, tokens: bucket.tokens };
  };
  const server = createServer((req, res) => {
    const key = String(req.headers.authorization ?? "");
    const params = new URL(req.url ?? "/", "http://127.0.0.1").searchParams;
    const { ok, tokens } = take(key);
    arrivals.push({ at: now(), key, status: ok ? 200 : 429 });
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (options.headers === "ietf") {
      // The window is whole seconds: a bucket of 100/s with a burst of 10 announces q=100;w=1, and only
      // `r` tells that fewer are left.
      const window = Math.max(1, Math.round(options.burst / options.rate));
      headers["ratelimit-policy"] = `"default";q=${Math.round(options.rate * window)};w=${window}`;
      const untilFull = Math.ceil((options.burst - tokens) / options.rate);
      headers.ratelimit = `"default";r=${Math.floor(tokens)};t=${untilFull}`;
    }
    if (!ok) {
      const wait = options.retryAfter?.seconds ?? Math.ceil((1 - tokens) / options.rate);
      headers["retry-after"] = String(Math.max(1, wait));
      res.writeHead(429, headers);
      const code = options.retryAfter?.code ?? "rate_limited";
      res.end(JSON.stringify({ error: { status: 429, code, message: "too many requests; slow down" } }));
      return;
    }
    const page = Number(params.get("page") ?? 1);
    const limit = Number(params.get("limit") ?? 100);
    const first = (page - 1) * limit;
    const data = Array.from({ length: Math.max(0, Math.min(limit, options.rows - first)) }, (_, i) => ({
      dimensions: { campaign_id: first + i + 1 },
      metrics: { views: first + i, clicks: 1 },
    }));
    res.writeHead(200, headers);
    res.end(
      JSON.stringify({
        meta: {
          granularity: "total",
          dimensions: ["campaign"],
          metrics: ["views", "clicks"],
          total: options.rows,
          page,
          limit,
          has_more: page * limit < options.rows,
        },
        data,
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrivals,
    configure: (change) => {
      Object.assign(options, change);
      buckets.clear();
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
