/** The service as a fastify instance, without listening: tests and `listen.ts` both build it here. */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { errorBody } from "../../contract";
import type { ReportStore } from "../db/store";
import { accessLine } from "./access-log";
import { authenticate } from "./auth";
import { codeForStatus, sendError } from "./errors";
import { reportHandler } from "./report-route";

export interface AppOptions {
  store: ReportStore;
  /** Peers whose X-Forwarded-For is believed; empty: the socket's address is the caller. */
  trustProxy: readonly string[];
  nowSeconds: () => number;
  /** Receives one access-log line per request; omit for none. */
  log?: ((line: string) => void) | undefined;
  /** Runs before anything else on every request (fault injection). */
  beforeRequest?: ((request: FastifyRequest, reply: FastifyReply) => Promise<void>) | undefined;
}

const REPORT_PATH = "/v1/report";

export function buildApp(options: AppOptions): FastifyInstance {
  const app = Fastify({
    logger: false,
    trustProxy: options.trustProxy.length > 0 ? [...options.trustProxy] : false,
    return503OnClosing: true,
    // Errors the router raises before any route runs (a malformed percent-encoding in the path, say).
    frameworkErrors: (error, _request, reply) => {
      void sendError(reply, codeForStatus(error.statusCode ?? 400), error.message);
    },
    forceCloseConnections: "idle",
    clientErrorHandler: (error, socket) => {
      if (!socket.writable) return;
      const body = JSON.stringify(errorBody("invalid_parameter", `malformed HTTP request: ${error.message}`));
      socket.end(
        `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
  });

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
  if (options.beforeRequest) app.addHook("onRequest", options.beforeRequest);

  app.route({
    method: "GET",
    url: REPORT_PATH,
    onRequest: authenticate(options.store, options.nowSeconds),
    handler: reportHandler(options.store),
  });

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split("?", 1)[0];
    if (path === REPORT_PATH) {
      reply.header("allow", "GET, HEAD");
      return sendError(reply, "method_not_allowed", `${request.method} is not allowed here; use GET`);
    }
    return sendError(reply, "not_found", `no such endpoint; the report is at GET ${REPORT_PATH}`);
  });

  app.setErrorHandler(async (error: { statusCode?: number; message?: string }, _request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return sendError(reply, codeForStatus(status), error.message ?? "bad request");
    }
    options.log?.(`internal error: ${error.message ?? String(error)}`);
    return reply
      .code(500)
      .type("application/json; charset=utf-8")
      .send(JSON.stringify({ error: { status: 500, code: "internal", message: "internal error" } }));
  });

  return app;
}
