/** `GET /openapi.json`: the OpenAPI document of the report endpoint, for anyone (it holds no data). */
import type { FastifyInstance } from "fastify";
import { OPENAPI_PATH, openApiText } from "../../contract";

export function registerOpenApiRoute(app: FastifyInstance): void {
  let text: string | undefined;
  app.get(OPENAPI_PATH, async (_request, reply) => {
    text ??= openApiText();
    return reply.type("application/json; charset=utf-8").send(text);
  });
}
