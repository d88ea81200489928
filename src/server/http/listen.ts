/** Opens the database read-only, builds the app and listens; `close()` drains and closes both. */
import type { Socket } from "node:net";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { timerDelay } from "../../core/wait";
import type { NativeBinding } from "../sqlite/open";
import { openServeStore } from "../store/open";
import type { ServeStore } from "../store/types";
import { type AppOptions, buildApp, type RateLimitOptions } from "./app";

export interface ServeOptions {
  /** A SQLite file, or a postgres:// URL. */
  dbPath: string;
  /** Connections to PostgreSQL at most (default 10); SQLite has one. */
  poolSize?: number | undefined;
  host: string;
  port: number;
  trustProxy: readonly string[];
  /** Rows the computed reports may hold together. */
  cacheRows: number;
  /** Megabytes the report caches may hold together, keys and overheads counted (default 64). */
  cacheMb?: number | undefined;
  /** A request's headers must be in within this time, or it is answered 408 (default 10 s). */
  headerTimeoutMs?: number | undefined;
  /** Connections open at once; more are refused and logged (default 4096). */
  maxConnections?: number | undefined;
  /** Failed authentications a minute from one address before 429 (default 20; 0: no limit). */
  authFailureLimit?: number | undefined;
  /** How long shutdown waits for requests in flight before closing every connection (default 10 s). */
  shutdownTimeoutMs?: number | undefined;
  /** Receives the access log, one line a request; omit for none. */
  log?: ((line: string) => void) | undefined;
  /** Receives what the operator must know even without an access log: connections refused, database reopened. */
  notice?: ((line: string) => void) | undefined;
  beforeRequest?: AppOptions["beforeRequest"];
  /** Origins whose pages may call the service from a browser (`serve --cors`). */
  corsOrigins?: readonly string[] | undefined;
  nowSeconds?: () => number;
  /** `serve --rate-limit`: a token bucket per key; omitted: no limit. */
  rateLimit?: RateLimitOptions | undefined;
  /** The monotonic clock (milliseconds) that times looks at the database file and reopen attempts. */
  nowMs?: (() => number) | undefined;
  nativeBinding?: NativeBinding;
}

export interface RunningServer {
  url: string;
  app: FastifyInstance;
  store: ServeStore;
  close(): Promise<void>;
}

const WILDCARD = /^http:\/\/(?:0\.0\.0\.0|\[::\]|\[::0\]|\[0:0:0:0:0:0:0:0\]):/;
/** A Host header that is a host name or address and a port, nothing else. */
const HOST_HEADER = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The URL the OpenAPI document names: the address listened on; for a wildcard (0.0.0.0, ::), which no
 * caller can use, the host the request was sent to.
 */
function serverUrl(listening: string, request: FastifyRequest): string {
  if (!WILDCARD.test(listening) || !HOST_HEADER.test(request.host)) return listening;
  return `${request.protocol}://${request.host}`;
}

const SERVE_DEFAULTS = {
  cacheMb: 64,
  headerTimeoutMs: 10_000,
  maxConnections: 4096,
  authFailureLimit: 20,
  shutdownTimeoutMs: 10_000,
  poolSize: 10,
} as const;

/** Logs refused connections at most this often, with how many there were since the last line. */
const DROP_LOG_INTERVAL_MS = 10_000;

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const store = await openServeStore(options.dbPath, {
    cacheBytes: Math.floor((options.cacheMb ?? SERVE_DEFAULTS.cacheMb) * 1024 * 1024),
    cacheRows: options.cacheRows,
    poolSize: options.poolSize ?? SERVE_DEFAULTS.poolSize,
    nowMs: options.nowMs,
    log: options.notice,
    nativeBinding: options.nativeBinding,
  });
  let closing = false;
  let listening = "";
  const app = buildApp({
    store,
    trustProxy: options.trustProxy,
    nowSeconds: options.nowSeconds ?? (() => Math.floor(Date.now() / 1000)),
    log: options.log,
    beforeRequest: options.beforeRequest,
    headerTimeoutMs: options.headerTimeoutMs ?? SERVE_DEFAULTS.headerTimeoutMs,
    authFailureLimit: options.authFailureLimit ?? SERVE_DEFAULTS.authFailureLimit,
    isClosing: () => closing,
    corsOrigins: options.corsOrigins,
    serverUrl: (request) => serverUrl(listening, request),
    rateLimit: options.rateLimit,
  });

  const sockets = new Set<Socket>();
  app.server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  const maxConnections = options.maxConnections ?? SERVE_DEFAULTS.maxConnections;
  app.server.maxConnections = maxConnections;
  let dropped = 0;
  let droppedLoggedAt = Number.NEGATIVE_INFINITY;
  app.server.on("drop", () => {
    dropped += 1;
    const now = performance.now();
    if (now - droppedLoggedAt < DROP_LOG_INTERVAL_MS) return;
    droppedLoggedAt = now;
    options.notice?.(
      `connection limit reached: ${maxConnections} open (--max-connections); refused ${dropped} new connection(s)`,
    );
    dropped = 0;
  });

  try {
    await app.listen({ host: options.host, port: options.port });
  } catch (error) {
    await app.close();
    await store.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  listening = `http://${host}:${port}`;
  const shutdownTimeoutMs = options.shutdownTimeoutMs ?? SERVE_DEFAULTS.shutdownTimeoutMs;

  let closed: Promise<void> | undefined;
  const close = async () => {
    closing = true;
    // Stops listening and closes idle connections; resolves once every connection is gone. Requests in
    // flight get until the grace period ends, then every connection left (half-sent requests, callers
    // that never read, a `--faults hang`) is cut.
    const grace = setTimeout(() => {
      app.server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
    }, timerDelay(shutdownTimeoutMs));
    try {
      await app.close();
    } finally {
      clearTimeout(grace);
      await store.close();
    }
  };
  return {
    url: listening,
    app,
    store,
    close: () => {
      closed ??= close();
      return closed;
    },
  };
}
