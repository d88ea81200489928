/**
 * `GET /openapi.json`: the OpenAPI document of the report endpoint, for anyone (it holds no data), its
 * `servers` naming the address this service is reached at.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { OPENAPI_PATH, openApiText } from "../../contract";

/** Documents kept per server URL: one for an address listened on, a few for the names a wildcard is reached by. */
const KEPT = 16;

export function registerOpenApiRoute(
  app: FastifyInstance,
  serverUrl: ((request: FastifyRequest) => string) | undefined,
): void {
  const texts = new Map<string, string>();
  app.get(OPENAPI_PATH, async (request, reply) => {
    const url = serverUrl?.(request) ?? "";
    let text = texts.get(url);
    if (text === undefined) {
      text = openApiText(url === "" ? undefined : { url, description: "this adreport serve" });
      if (texts.size >= KEPT) texts.clear();
      texts.set(url, text);
    }
    return reply.type("application/json; charset=utf-8").send(text);
  });
}
