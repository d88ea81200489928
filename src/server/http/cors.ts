/**
 * `serve --cors ORIGIN`: a page from one of the listed origins may call the service from a browser. A
 * preflight (OPTIONS with Access-Control-Request-Method) of the report or the OpenAPI document is answered
 * 204 allowing GET with an Authorization header; every answer to a listed origin, errors included, names
 * it in Access-Control-Allow-Origin and exposes the headers a caller acts on. Other origins get no CORS
 * header, so their browsers keep the answer from the page. Every answer varies by Origin, for caches.
 * Origins are compared exactly, as browsers send them (`https://app.example.com`, no path, no default port).
 */
import type { FastifyInstance } from "fastify";
import { OPENAPI_PATH, REPORT_PATH } from "../../contract";

/** Headers besides the CORS-safelisted ones that a page needs to act on an answer. */
const EXPOSED = "Retry-After, WWW-Authenticate";
/** How long a browser may reuse a preflight's answer, in seconds. */
const PREFLIGHT_MAX_AGE = 600;

export class CorsOriginError extends Error {}

/**
 * An --cors value as a browser would send it in Origin: the scheme, host and port (the default one left
 * out). Anything with a path, query, credentials or another scheme is refused.
 */
export function corsOrigin(text: string): string {
  const shown = JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
  if (text === "*" || text === "null") {
    throw new CorsOriginError(
      `${shown} is not allowed: list each origin (https://app.example.com), so a key is never readable by any page`,
    );
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CorsOriginError(`${shown} is not an origin like https://app.example.com or http://localhost:5173`);
  }
  if (
    (url.protocol !== "http:" && url.protocol !== "https:") ||
    url.username !== "" ||
    url.password !== "" ||
    url.pathname !== "/" ||
    url.search !== "" ||
    url.hash !== "" ||
    /[?#]/.test(text)
  ) {
    throw new CorsOriginError(
      `${shown} is not an origin: only the scheme, host and port (https://app.example.com:8443)`,
    );
  }
  return url.origin;
}

function isCorsPath(url: string): boolean {
  const path = url.split("?", 1)[0];
  return path === REPORT_PATH || path === OPENAPI_PATH;
}

/** Registered before every other hook, so answers other hooks send (faults, shutting down) carry it too. */
export function registerCors(app: FastifyInstance, origins: readonly string[], rateLimitFields = false): void {
  const allowed = new Set(origins);
  const exposed = rateLimitFields ? `${EXPOSED}, RateLimit, RateLimit-Policy` : EXPOSED;
  app.addHook("onRequest", async (request, reply) => {
    reply.header("vary", "Origin");
    const origin = request.headers.origin;
    if (origin === undefined || !allowed.has(origin)) return;
    reply.header("access-control-allow-origin", origin);
    const preflight = request.method === "OPTIONS" && request.headers["access-control-request-method"] !== undefined;
    if (!preflight || !isCorsPath(request.url)) {
      reply.header("access-control-expose-headers", exposed);
      return;
    }
    reply
      .header("access-control-allow-methods", "GET")
      .header("access-control-allow-headers", "authorization")
      .header("access-control-max-age", String(PREFLIGHT_MAX_AGE));
    return reply.code(204).send();
  });
}
