/**
 * The OpenAPI 3.1 document of `GET /v1/report`, generated from the schemas the client and `serve` check
 * with (query-schema.ts, response.ts, errors.ts): the document cannot say something the code does not do.
 */
import * as z from "zod";
import { REPORT_PATH } from "./endpoint";
import { ERROR_STATUS, type ErrorCode } from "./errors";
import { QUERY_PARAMS } from "./fields";
import { reportQuerySchema } from "./query-schema";
import { errorBodySchema, reportMetaSchema, reportRowSchema } from "./response";

export const OPENAPI_PATH = "/openapi.json";

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, target: "draft-2020-12" }) as JsonSchema;
  return rest;
}

/** The page as documented: reportPageSchema's meta, and its rows as the declaration isReportRow checks. */
const documentedPage = z
  .looseObject({ meta: reportMetaSchema, data: z.array(reportRowSchema).meta({ description: "This page's rows." }) })
  .meta({ description: "One page of the report." });

/** Each status with the error codes it travels with, in the order of ERROR_STATUS. */
function codesByStatus(): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const [code, status] of Object.entries(ERROR_STATUS) as [ErrorCode, number][]) {
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

function errorSchemaFor(status: number, codes: readonly ErrorCode[]): z.ZodType {
  const error = errorBodySchema.shape.error.extend({
    status: z.literal(status),
    code: z.enum(codes as [ErrorCode, ...ErrorCode[]]),
  });
  return errorBodySchema.extend({ error });
}

const STATUS_WORDS: Record<number, string> = {
  400: "A parameter breaks a rule (see each parameter).",
  401: "The key is missing, malformed, unknown, revoked or expired.",
  403: "The caller's address is not on the key's whitelist, or campaign_id / ad_id is not the advertiser's.",
  404: "No such endpoint.",
  405: "Another method than GET or HEAD.",
  408: "The request's headers did not arrive in time (local serve only).",
  429: "Too many requests with this key (serve --rate-limit), or failed authentications from this address.",
  500: "A fault of the service (local serve only); nothing a caller sends causes it.",
  503: "The service is shutting down or reopening its database (local serve only).",
};

const integerHeader = (description: string) => ({ description, schema: { type: "integer", minimum: 0 } });
/**
 * The fields of draft-ietf-httpapi-ratelimit-headers-11 that `serve --rate-limit` sends on every answer of a
 * valid key (not with `--rate-limit-headers none`); other services may send them or not.
 */
const RATE_LIMIT_HEADERS: Record<string, unknown> = {
  "RateLimit-Policy": {
    description:
      "The key's quota policy (draft-ietf-httpapi-ratelimit-headers-11): a token bucket of q requests, refilled q every w seconds. Only when a rate limit is set.",
    schema: { type: "string", examples: ['"default";q=20;w=1'] },
  },
  RateLimit: {
    description:
      "The key's quota now: r whole requests left, t seconds (rounded up) until the next one. Only when a rate limit is set.",
    schema: { type: "string", examples: ['"default";r=19;t=1'] },
  },
};
const STATUS_HEADERS: Record<number, Record<string, unknown>> = {
  401: { "WWW-Authenticate": { description: "Bearer", schema: { type: "string" } } },
  405: { Allow: { description: "GET, HEAD", schema: { type: "string" } } },
  429: { "Retry-After": integerHeader("Seconds to wait before asking again."), ...RATE_LIMIT_HEADERS },
  503: { "Retry-After": integerHeader("Seconds to wait before asking again.") },
};

function parameters(): JsonSchema[] {
  const query = jsonSchema(reportQuerySchema, "input") as {
    properties: Record<string, JsonSchema>;
    required: string[];
  };
  return QUERY_PARAMS.map((name) => {
    const { description, ...schema } = query.properties[name] as JsonSchema;
    return {
      name,
      in: "query",
      required: query.required.includes(name),
      description,
      schema,
    };
  });
}

function errorResponses(): Record<string, JsonSchema> {
  const responses: Record<string, JsonSchema> = {};
  for (const [status, codes] of codesByStatus()) {
    responses[String(status)] = {
      description: `${STATUS_WORDS[status] ?? "An error."} Codes: ${codes.join(", ")}.`,
      ...(STATUS_HEADERS[status] ? { headers: STATUS_HEADERS[status] } : {}),
      content: { "application/json": { schema: { $ref: `#/components/schemas/Error${status}` } } },
    };
  }
  return responses;
}

function errorSchemas(): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = {};
  for (const [status, codes] of codesByStatus()) {
    schemas[`Error${status}`] = jsonSchema(errorSchemaFor(status, codes), "output");
  }
  return schemas;
}

export interface OpenApiServer {
  url: string;
  description: string;
}

/** The address `docs/openapi.json` and `serve openapi` name: serve's default; serve names its own. */
export const DEFAULT_SERVER: OpenApiServer = {
  url: "http://127.0.0.1:8080",
  description: "adreport serve on its default address (a running serve's /openapi.json names its own)",
};

/** The document, as a plain JSON value. */
export function openApiDocument(server: OpenApiServer = DEFAULT_SERVER): JsonSchema {
  return {
    openapi: "3.1.0",
    info: {
      title: "Reporting API",
      version: "1",
      description:
        "Advertising statistics of the advertiser that owns the key, one page of a report at a time. A request that breaks a rule is refused, never guessed at; an unknown parameter is refused too.",
    },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    servers: [server],
    security: [{ bearer: [] }],
    paths: {
      [REPORT_PATH]: {
        get: {
          operationId: "getReport",
          summary: "One page of a report",
          description:
            "Rows by the requested dimensions, ordered by entity id, then bucket. The checks run in this order: the key (401), the caller's address (403), the parameters (400), the ownership of campaign_id / ad_id (403). HEAD answers the same without a body.",
          parameters: parameters(),
          responses: {
            "200": {
              description: "A page of the report.",
              headers: RATE_LIMIT_HEADERS,
              content: { "application/json": { schema: { $ref: "#/components/schemas/ReportPage" } } },
            },
            ...errorResponses(),
          },
        },
      },
    },
    components: {
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description: "Authorization: Bearer <key>. A key works only from the addresses on its whitelist.",
        },
      },
      schemas: { ReportPage: jsonSchema(documentedPage, "output"), ...errorSchemas() },
    },
  };
}

/** The document as `serve` answers it and `npm run docs` writes it: two-space JSON and a final newline. */
export function openApiText(server?: OpenApiServer): string {
  return `${JSON.stringify(openApiDocument(server), null, 2)}\n`;
}
