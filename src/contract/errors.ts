/** Error codes of docs/service.md §5 and the HTTP status each one travels with. */
export const ERROR_STATUS = {
  invalid_parameter: 400,
  unknown_parameter: 400,
  range_too_long: 400,
  unsupported_combination: 400,
  unsupported_metric: 400,
  missing_key: 401,
  invalid_key: 401,
  key_expired: 401,
  ip_not_allowed: 403,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  rate_limited: 429,
  // Beyond A4's list, for what only the service itself causes: headers never finished, a request the
  // service failed (never the caller's doing), and a database it is reopening.
  request_timeout: 408,
  internal: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export type RequestErrorCode =
  | "invalid_parameter"
  | "unknown_parameter"
  | "range_too_long"
  | "unsupported_combination"
  | "unsupported_metric";

/** A request that breaks a rule of docs/service.md §2: carries the code and the offending parameter. */
export class RequestRuleError extends Error {
  override readonly name = "RequestRuleError";
  constructor(
    readonly code: RequestErrorCode,
    readonly param: string,
    message: string,
  ) {
    super(message);
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}
