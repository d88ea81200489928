/**
 * The query of `GET /v1/report` on the wire (docs/service.md §2): the server's parse, which turns the
 * schema's first refusal into a RequestRuleError, and the client's encoding of one page of a request.
 */
import type * as z from "zod";
import { quote } from "../core/quote";
import { RequestRuleError } from "./errors";
import { type Dimension, type Metric, QUERY_PARAMS } from "./fields";
import { type ReportQuery, reportQuerySchema } from "./query-schema";

export type { ReportQuery } from "./query-schema";

/** The wire form of a query: one string per parameter. */
export type QueryParams = Partial<Record<string, string>>;

function toRuleError(issues: readonly z.core.$ZodIssue[]): RequestRuleError {
  const unknown = issues.find((i) => i.code === "unrecognized_keys");
  if (unknown && unknown.code === "unrecognized_keys") {
    const name = unknown.keys[0] ?? "";
    return new RequestRuleError(
      "unknown_parameter",
      name.slice(0, 64),
      `${quote(name)} is not a parameter of this endpoint; use ${QUERY_PARAMS.join(", ")}`,
    );
  }
  const first = issues[0];
  const param = String(first?.path[0] ?? "");
  if (first?.code === "custom") {
    return new RequestRuleError(first.params?.code ?? "invalid_parameter", param, first.message);
  }
  if (first?.code === "invalid_type" && first.input === undefined) {
    return new RequestRuleError("invalid_parameter", param, `${param}: required`);
  }
  return new RequestRuleError("invalid_parameter", param, `${param}: ${first?.message ?? "invalid"}`);
}

type ParseResult = { ok: true; query: ReportQuery } | { ok: false; error: RequestRuleError };

/** Checks a query against every rule of docs/service.md §2. A parameter given twice is refused. */
export function parseReportQuery(input: URLSearchParams | QueryParams): ParseResult {
  let params: QueryParams;
  if (input instanceof URLSearchParams) {
    // No prototype: `__proto__` must land as an own key (and be refused as unknown), not set the prototype.
    params = Object.create(null) as QueryParams;
    for (const [name, value] of input) {
      if (Object.hasOwn(params, name)) {
        const rule = (QUERY_PARAMS as readonly string[]).includes(name) ? "invalid_parameter" : "unknown_parameter";
        return {
          ok: false,
          error: new RequestRuleError(rule, name.slice(0, 64), `${quote(name)} given more than once`),
        };
      }
      params[name] = value;
    }
  } else {
    params = input;
  }
  const result = reportQuerySchema.safeParse(params);
  return result.success ? { ok: true, query: result.data } : { ok: false, error: toRuleError(result.error.issues) };
}

/** What a client asks for, before paging. */
export interface ReportRequest {
  from: string;
  to: string;
  metrics: readonly Metric[];
  dimensions: readonly Dimension[];
  granularity?: string | undefined;
  campaignId?: number | undefined;
  adId?: number | undefined;
}

/** The query parameters of one page of a request, as they go on the wire. */
export function encodeReportQuery(request: ReportRequest, page: number, limit: number): Record<string, string> {
  const params: Record<string, string> = {
    from: request.from,
    to: request.to,
    metrics: request.metrics.join(","),
  };
  if (request.dimensions.length > 0) params.dimensions = request.dimensions.join(",");
  if (request.granularity !== undefined) params.granularity = request.granularity;
  if (request.campaignId !== undefined) params.campaign_id = String(request.campaignId);
  if (request.adId !== undefined) params.ad_id = String(request.adId);
  params.page = String(page);
  params.limit = String(limit);
  return params;
}
