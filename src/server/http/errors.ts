import type { FastifyReply } from "fastify";
import { ERROR_STATUS, type ErrorCode, errorBody } from "../../contract";

/** Sends the JSON error body of docs/service.md §5. */
export function sendError(reply: FastifyReply, code: ErrorCode, message: string, param?: string): FastifyReply {
  if (ERROR_STATUS[code] === 401) reply.header("www-authenticate", "Bearer");
  return reply
    .code(ERROR_STATUS[code])
    .type("application/json; charset=utf-8")
    .send(JSON.stringify(errorBody(code, message, param)));
}

/** The code for an HTTP status fastify itself raised (a bad URL, a body it cannot read). */
export function codeForStatus(status: number): ErrorCode {
  if (status === 404) return "not_found";
  if (status === 405) return "method_not_allowed";
  if (status === 429) return "rate_limited";
  return "invalid_parameter";
}
