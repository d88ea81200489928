/**
 * What an answer other than 200 means: a retry for 429 and 5xx (docs/service.md §5), otherwise the typed
 * error of its status, with the service's own message (redacted) when its body has the contract's error
 * shape, or something readable from any other body.
 */
import { isIP } from "node:net";
import { errorBodySchema } from "../contract";
import { UnavailableError, UsageError } from "../core/errors";
import { AccessRefusedError, KeyRefusedError, NoEndpointError, RedirectedError } from "./errors";
import type { Redactor } from "./redact";
import { RETRIABLE_STATUSES, Retriable, retryAfterMs } from "./retry";

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as text, up to the client's bound. */
  text: string;
}

interface Detail {
  code: string | undefined;
  message: string;
}

/** An error code that says the quota of the day is spent (`daily_quota_exceeded`), not a moment's throttling. */
const DAILY_CODE = /daily/i;

/** The message and code of an error body of the contract's shape, or something readable from any other. */
function errorDetail(answer: Answer, redactor: Redactor): Detail {
  let value: unknown;
  try {
    value = JSON.parse(answer.text);
  } catch {
    value = undefined;
  }
  const parsed = errorBodySchema.safeParse(value);
  if (parsed.success) return { code: parsed.data.error.code, message: redactor.redact(parsed.data.error.message) };
  const snippet = redactor.redactedStart(answer.text.slice(0, 8192).replace(/\s+/g, " ").trim(), 120);
  return { code: undefined, message: snippet === "" ? `HTTP ${answer.status}` : snippet };
}

/** The first IP address a message names (a service often says which address it saw), if any. */
function addressIn(message: string): string | undefined {
  return message
    .split(/[\s,;()"'[\]]+/)
    .map((word) => word.replace(/[.:]+$/, ""))
    .find((word) => isIP(word) !== 0);
}

/** The error an answer other than 200 means; a Retriable for the statuses worth another try. */
export function statusError(answer: Answer, base: URL, redactor: Redactor, nowMs: number): Error {
  const { status, headers } = answer;
  const detail = errorDetail(answer, redactor);
  if (RETRIABLE_STATUSES.has(status)) {
    // After the last try, what the user can do about it (the message says how many tries were made).
    const hint =
      status === 429
        ? "run the export again later; to stay under the service's limit, lower --concurrency or set --rate (2/s)"
        : "run the export again later";
    return new Retriable(
      `the service answered ${status}: ${detail.message}`,
      retryAfterMs(headers["retry-after"], nowMs),
      (text) => new UnavailableError(text, { hint }),
      DAILY_CODE.test(detail.code ?? ""),
    );
  }
  switch (status) {
    case 400:
      return new UsageError(`the service refused the request: ${detail.message}`);
    case 401:
      return new KeyRefusedError(`the service refused the key (401): ${detail.message}`, detail.code);
    case 403: {
      const message = `the service refused access (403): ${detail.message}`;
      const address = addressIn(detail.message);
      if (detail.code === "ip_not_allowed" || detail.code === undefined) {
        return new AccessRefusedError(message, "address", address);
      }
      return new AccessRefusedError(
        message,
        "ownership",
        address,
        "the campaign or ad named is not owned by this key's advertiser",
      );
    }
    case 404:
      // `serve replay` answers a request its recording does not hold so, naming the nearest one it does.
      if (detail.code === "not_recorded") return new UsageError(`${detail.message} (404 from serve replay)`);
      return new NoEndpointError(`the service has no report endpoint at ${base.origin}${base.pathname} (404)`);
    default: {
      const location = headers.location;
      if (status >= 300 && status < 400 && location) {
        return new RedirectedError(`the service redirects to ${redactor.redact(String(location))} (${status})`, status);
      }
      return new UnavailableError(`the service answered ${status}: ${detail.message}`);
    }
  }
}
