/**
 * The fake reporting service: a local server on 127.0.0.1 answering `GET /v1/report` pages as the contract
 * says, over `rows` generated rows, counting every request per page. Knobs for what a real service may do
 * that our `serve` does not: a fault per request (to test the client's retry budget and loop bounds), its
 * own meta or rows, HTTPS, and answers held until the test lets them go (requests in flight).
 * For a server answering something else entirely, use startLocalServer (test/helpers/local-server.ts).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { startLocalServer } from "./local-server";

export interface PageRequest {
  page: number;
  limit: number;
  /** 1 for the first request for this page, 2 for the second, ... */
  attempt: number;
  /** The query string as sent (from, to, dimensions, ...). */
  params: URLSearchParams;
}
export type Fault =
  | "reset-body"
  | "short-body"
  | "trickle"
  | "hang"
  | "429-retry-after-0"
  | "not-json"
  | "huge-page"
  | "huge-error"
  | "server-error";

export const FAULTS: readonly Fault[] = [
  "reset-body",
  "short-body",
  "trickle",
  "hang",
  "429-retry-after-0",
  "not-json",
];

export interface FakeService {
  url: string;
  /** Requests received, by page number. */
  requests: Map<number, number>;
  total(): number;
  close(): Promise<void>;
}

export interface ServiceOptions {
  rows: number;
  /** The fault to answer this request with, or undefined to answer it well. */
  fault?: (request: PageRequest) => Fault | undefined;
  /** Replaces the page's meta fields (e.g. a `total` of 10^12 and a `has_more` that never ends). */
  meta?: (request: PageRequest) => Record<string, unknown>;
  /** The rows a page holds, when not the contract's slice. */
  rowsOf?: (request: PageRequest) => object[];
  /** Serve HTTPS with this key and certificate. */
  tls?: { key: Buffer; cert: Buffer };
  /** The answer waits until this resolves (then `fault` is asked): a gate holding requests in flight. */
  hold?: (request: PageRequest) => Promise<void>;
  /** Fields added to a good answer's headers (rate-limit fields, say). */
  headers?: (request: PageRequest) => Record<string, string>;
}

export function rowsOf(count: number, from = 1): object[] {
  return Array.from({ length: count }, (_, i) => ({
    dimensions: { campaign_id: from + i, name: `Campaign ${from + i}` },
    metrics: { views: (from + i) * 10, clicks: from + i },
  }));
}

/** The body of page `request.page` of a report of `options.rows` rows. */
export function pageBody(options: Pick<ServiceOptions, "rows" | "meta" | "rowsOf">, request: PageRequest): string {
  const { page, limit } = request;
  const start = (page - 1) * limit;
  const data = options.rowsOf?.(request) ?? rowsOf(Math.max(0, Math.min(limit, options.rows - start)), start + 1);
  return JSON.stringify({
    meta: {
      granularity: "total",
      dimensions: ["campaign"],
      metrics: ["views", "clicks"],
      total: options.rows,
      page,
      limit,
      has_more: page * limit < options.rows,
      ...options.meta?.(request),
    },
    data,
  });
}

function misbehave(fault: Fault, body: string, res: ServerResponse): void {
  const bytes = Buffer.from(body);
  switch (fault) {
    case "reset-body":
      res.writeHead(200, { "content-type": "application/json", "content-length": bytes.length });
      res.write(bytes.subarray(0, bytes.length >> 1), () => res.socket?.resetAndDestroy());
      return;
    case "short-body":
      res.writeHead(200, { "content-type": "application/json", "content-length": bytes.length + 100 });
      res.write(bytes, () => res.socket?.destroySoon());
      return;
    case "trickle": {
      res.writeHead(200, { "content-type": "application/json", "content-length": bytes.length });
      let at = 0;
      const timer = setInterval(() => {
        if (at >= bytes.length || res.destroyed) clearInterval(timer);
        else {
          res.write(bytes.subarray(at, at + 1));
          at += 1;
        }
      }, 100);
      res.on("close", () => clearInterval(timer));
      return;
    }
    case "hang":
      return; // the headers never come
    case "429-retry-after-0":
      res.writeHead(429, { "content-type": "application/json", "retry-after": "0" });
      res.end('{"error":{"status":429,"code":"rate_limited","message":"slow down"}}');
      return;
    case "server-error":
      res.writeHead(500, { "content-type": "application/json" });
      res.end('{"error":{"status":500,"code":"internal","message":"failed"}}');
      return;
    case "not-json":
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html><body>proxy error</body></html>");
      return;
    case "huge-page":
    case "huge-error": {
      // 3 MB, chunked (no length to refuse it by): the client must stop reading at its bound.
      res.writeHead(fault === "huge-page" ? 200 : 503, { "content-type": "application/json" });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let sent = 0;
      const more = () => {
        while (sent < 48 && !res.destroyed) {
          sent += 1;
          if (!res.write(chunk)) {
            res.once("drain", more);
            return;
          }
        }
        res.end();
      };
      res.write('{"meta":', more);
      return;
    }
  }
}

export async function startFakeService(options: ServiceOptions): Promise<FakeService> {
  const requests = new Map<number, number>();
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const params = new URL(req.url ?? "/", "http://127.0.0.1").searchParams;
    const page = Number(params.get("page") ?? 1);
    const limit = Number(params.get("limit") ?? 100);
    const attempt = (requests.get(page) ?? 0) + 1;
    requests.set(page, attempt);
    const request = { page, limit, attempt, params };
    if (options.hold) await options.hold(request);
    const body = pageBody(options, request);
    const fault = options.fault?.(request);
    if (fault !== undefined) {
      misbehave(fault, body, res);
      return;
    }
    res.writeHead(200, { "content-type": "application/json", ...options.headers?.(request) });
    res.end(body);
  };
  const server = await startLocalServer((req, res) => void handle(req, res), undefined, options.tls);
  return {
    url: server.url,
    requests,
    total: () => [...requests.values()].reduce((a, b) => a + b, 0),
    close: server.close,
  };
}
