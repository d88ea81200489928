/** The service as a fastify instance, without listening: tests and `listen.ts` both build it here. */
import { createServer } from "node:http";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { ERROR_STATUS, type ErrorCode, errorBody, OPENAPI_PATH, REPORT_PATH } from "../../contract";
import { DatabaseUnavailableError } from "../model/errors";
import type { ServeStore } from "../store/types";
import { accessLine } from "./access-log";
import { authenticate } from "./auth";
import { AuthFailureThrottle } from "./auth-throttle";
import { registerCors } from "./cors";
import { codeForStatus, sendError } from "./errors";
import { registerOpenApiRoute } from "./openapi-route";
import { type RateLimit, RateLimiter } from "./rate-limit";
import { rateLimitHook } from "./rate-limit-hook";
import { reportHandler } from "./report-route";

export interface AppOptions {
  store: ServeStore;
  /** Peers whose X-Forwarded-For is believed; empty: the socket's address is the caller. */
  trustProxy: readonly string[];
  nowSeconds: () => number;
  /** Receives one access-log line per request; omit for none. */
  log?: ((line: string) => void) | undefined;
  /** Runs before anything else on every request (fault injection). */
  beforeRequest?: ((request: FastifyRequest, reply: FastifyReply) => Promise<void>) | undefined;
  /** A request whose headers are not all in after this long is answered 408 and its connection closed. */
  headerTimeoutMs: number;
  /** Failed authentications a minute from one address before it is answered 429; 0: no limit. */
  authFailureLimit: number;
  /** True once shutdown began: requests still arriving on open connections are answered 503. */
  isClosing?: (() => boolean) | undefined;
  /** Origins whose pages may call the service from a browser (`serve --cors`); none: no CORS headers. */
  corsOrigins?: readonly string[] | undefined;
  /** The service's URL for the OpenAPI document's `servers`, for a request; omitted: the static placeholder. */
  serverUrl?: ((request: FastifyRequest) => string) | undefined;
  /** `serve --rate-limit`: a token bucket per key on GET /v1/report; omitted: no limit. */
  rateLimit?: RateLimitOptions | undefined;
}

export interface RateLimitOptions {
  limit: RateLimit;
  /** False (`--rate-limit-headers none`): no RateLimit / RateLimit-Policy fields, only 429 and Retry-After. */
  headers: boolean;
  /** The monotonic clock (milliseconds) the buckets fill by; default performance.now. */
  nowMs?: (() => number) | undefined;
  /** Keys whose buckets are kept at most (default 10,000). */
  maxKeys?: number | undefined;
}

/** How long an idle keep-alive connection stays open: long enough for a client's next page request. */
const KEEP_ALIVE_MS = 5_000;

/** A whole HTTP response written straight to a socket, for errors raised before fastify has a request. */
function rawErrorResponse(code: ErrorCode, message: string): string {
  const body = JSON.stringify(errorBody(code, message));
  const status = ERROR_STATUS[code];
  const reason = status === 408 ? "Request Timeout" : "Bad Request";
  return `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

export function buildApp(options: AppOptions): FastifyInstance {
  const headersTimeout = options.headerTimeoutMs;
  const app = Fastify({
    logger: false,
    trustProxy: options.trustProxy.length > 0 ? [...options.trustProxy] : false,
    // Requests arriving while shutting down get the contract's error body (below), not fastify's own.
    return503OnClosing: false,
    // Node checks its header and request timeouts on this interval; its default of 30 s would let a
    // connection that never finishes its headers live up to 30 s past the timeout.
    serverFactory: (handler) =>
      createServer(
        {
          headersTimeout,
          requestTimeout: headersTimeout * 3,
          keepAliveTimeout: KEEP_ALIVE_MS,
          connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(headersTimeout / 4))),
        },
        handler,
      ),
    // Errors the router raises before any route runs (a malformed percent-encoding in the path, say).
    frameworkErrors: (error, _request, reply) => {
      void sendError(reply, codeForStatus(error.statusCode ?? 400), error.message);
    },
    forceCloseConnections: "idle",
    clientErrorHandler: (error: NodeJS.ErrnoException, socket) => {
      if (!socket.writable) return;
      if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
        socket.end(
          rawErrorResponse("request_timeout", `the request was not received in full within ${headersTimeout / 1000} s`),
        );
        return;
      }
      socket.end(rawErrorResponse("invalid_parameter", `malformed HTTP request: ${error.message}`));
    },
  });

  if (options.corsOrigins && options.corsOrigins.length > 0) {
    registerCors(app, options.corsOrigins, options.rateLimit?.headers === true);
  }
  if (options.log) {
    const log = options.log;
    app.addHook("onResponse", async (request, reply) => {
      log(
        accessLine({
          ip: request.ip,
          method: request.method,
          url: request.url,
          status: reply.statusCode,
          ms: reply.elapsedTime,
          keyId: request.keyId,
        }),
      );
    });
  }
  if (options.isClosing) {
    const isClosing = options.isClosing;
    app.addHook("onRequest", async (_request, reply) => {
      if (!isClosing()) return;
      reply.header("connection", "close").header("retry-after", "1");
      await sendError(reply, "service_unavailable", "the service is shutting down");
    });
  }
  if (options.beforeRequest) app.addHook("onRequest", options.beforeRequest);

  const throttle =
    options.authFailureLimit > 0 ? new AuthFailureThrottle(options.authFailureLimit, options.nowSeconds) : undefined;
  const auth = authenticate(options.store, options.nowSeconds, throttle);
  const limit = options.rateLimit;
  const limitRate = limit
    ? rateLimitHook(
        new RateLimiter(limit.limit, limit.nowMs ?? (() => performance.now()), limit.maxKeys),
        limit.headers,
      )
    : undefined;
  app.route({
    method: "GET",
    url: REPORT_PATH,
    // The key first: a refused one (401, 403 for its address) never reaches a bucket, so only valid keys hold one.
    onRequest: limitRate
      ? async (request, reply) => {
          await auth(request, reply);
          if (!reply.sent) await limitRate(request, reply);
        }
      : auth,
    handler: reportHandler(options.store),
  });
  registerOpenApiRoute(app, options.serverUrl);

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split("?", 1)[0];
    if (path === REPORT_PATH || path === OPENAPI_PATH) {
      reply.header("allow", "GET, HEAD");
      return sendError(reply, "method_not_allowed", `${request.method} is not allowed here; use GET`);
    }
    return sendError(reply, "not_found", `no such endpoint; the report is at GET ${REPORT_PATH}`);
  });

  app.setErrorHandler(async (error: { statusCode?: number; message?: string }, _request, reply) => {
    if (error instanceof DatabaseUnavailableError) {
      reply.header("retry-after", String(error.retryAfterSeconds));
      return sendError(reply, "service_unavailable", error.message);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return sendError(reply, codeForStatus(status), error.message ?? "bad request");
    }
    options.log?.(`internal error: ${error.message ?? String(error)}`);
    return sendError(reply, "internal", "internal error");
  });

  return app;
}
