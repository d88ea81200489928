/**
 * Local report services that misbehave on purpose, for end-to-end tests of the client's retry budget and
 * loop bounds: real HTTP on 127.0.0.1, counting every request per page. A fault decides, per request,
 * whether and how to break the answer; otherwise the page is served as the contract says.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createTlsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll } from "vitest";

interface PageRequest {
  page: number;
  limit: number;
  /** 1 for the first request for this page, 2 for the second, ... */
  attempt: number;
}

export type Fault =
  | "reset-body"
  | "short-body"
  | "trickle"
  | "hang"
  | "429-retry-after-0"
  | "not-json"
  | "huge-page"
  | "huge-error";

export const FAULTS: readonly Fault[] = [
  "reset-body",
  "short-body",
  "trickle",
  "hang",
  "429-retry-after-0",
  "not-json",
];

export interface HostileService {
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
}

function rowsOf(count: number, from = 1): object[] {
  return Array.from({ length: count }, (_, i) => ({
    dimensions: { campaign_id: from + i, name: `Campaign ${from + i}` },
    metrics: { views: (from + i) * 10, clicks: from + i },
  }));
}

function pageBody(options: ServiceOptions, request: PageRequest): string {
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

const servers = new Set<HostileService>();
afterAll(async () => {
  await Promise.all([...servers].map((s) => s.close()));
});

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

export async function startHostileService(options: ServiceOptions): Promise<HostileService> {
  const requests = new Map<number, number>();
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const page = Number(url.searchParams.get("page") ?? 1);
    const limit = Number(url.searchParams.get("limit") ?? 100);
    const attempt = (requests.get(page) ?? 0) + 1;
    requests.set(page, attempt);
    const request = { page, limit, attempt };
    const body = pageBody(options, request);
    const fault = options.fault?.(request);
    if (fault !== undefined) {
      misbehave(fault, body, res);
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(body);
  };
  const server = options.tls ? createTlsServer(options.tls, handle) : createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const service: HostileService = {
    url: `${options.tls ? "https" : "http"}://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    total: () => [...requests.values()].reduce((a, b) => a + b, 0),
    close: () =>
      new Promise<void>((resolve) => {
        servers.delete(service);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  servers.add(service);
  return service;
}
