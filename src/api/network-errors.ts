/**
 * What a failed connection or read means, in words a user can act on: the reason, a hint or a remedy for
 * the command to word, and whether trying again could help. Certificate problems and an https:// URL on a plain-HTTP port fail the same way
 * every time, so they are not retried, and OpenSSL's own text never reaches the user.
 */
import type { ConnectionRemedy } from "./errors";

export interface NetworkFailure {
  reason: string;
  hint?: string | undefined;
  remedy?: ConnectionRemedy | undefined;
  /** Trying again cannot help (the same certificate, the same protocol mismatch). */
  final: boolean;
}

const UNTRUSTED_CERTIFICATE = new Set([
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "CERT_UNTRUSTED",
  "CERT_SIGNATURE_FAILURE",
]);

/** The codes along an error's chain of causes, outermost first (undici wraps the socket's error). */
function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    const code: unknown = (current as NodeJS.ErrnoException).code;
    if (typeof code === "string") codes.push(code);
    current = current.cause;
  }
  return codes;
}

function messagesOf(error: unknown): string {
  const parts: string[] = [];
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    parts.push(current.message);
    current = current.cause;
  }
  return parts.join(" ");
}

export function networkFailure(error: unknown, base: URL): NetworkFailure {
  const codes = codesOf(error);
  const code = codes.find((c) => c !== "UND_ERR_SOCKET") ?? codes[0];
  if (code !== undefined && UNTRUSTED_CERTIFICATE.has(code)) {
    return {
      reason: `its TLS certificate is not signed by an authority this machine trusts (${code})`,
      remedy: "trust-private-ca",
      final: true,
    };
  }
  if (code === "CERT_HAS_EXPIRED" || code === "CERT_NOT_YET_VALID") {
    return {
      reason: `its TLS certificate is not valid now (${code})`,
      hint: "the service's certificate must be renewed by its operator",
      final: true,
    };
  }
  if (code === "ERR_TLS_CERT_ALTNAME_INVALID") {
    return {
      reason: `its TLS certificate is not for ${base.hostname} (${code})`,
      hint: "check the host name in the base URL against the one the service's certificate names",
      final: true,
    };
  }
  if (
    base.protocol === "https:" &&
    (code === "ERR_SSL_WRONG_VERSION_NUMBER" ||
      code === "ERR_SSL_PACKET_LENGTH_TOO_LONG" ||
      /wrong version number|packet length too long|http request/i.test(messagesOf(error)))
  ) {
    return {
      reason: "the service answered in plain HTTP, not TLS",
      hint: `try http://${base.host}${base.pathname === "/" ? "" : base.pathname} as the base URL`,
      final: true,
    };
  }
  switch (code) {
    case "ECONNREFUSED":
      return {
        reason: "connection refused (is the service running at that address?)",
        remedy: "check-base-url",
        final: false,
      };
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return {
        reason: `cannot resolve ${base.hostname}`,
        remedy: code === "ENOTFOUND" ? "check-base-url" : undefined,
        final: false,
      };
    case "PROXY_TUNNEL_CLOSED":
      return { reason: "the proxy closed the connection before it opened a tunnel", final: false };
    case "ECONNRESET":
    case "EPIPE":
    case "UND_ERR_SOCKET":
    case "UND_ERR_CLOSED":
      return { reason: "the connection was closed before the whole answer came", final: false };
    case "UND_ERR_HEADERS_TIMEOUT":
    case "UND_ERR_BODY_TIMEOUT":
      return { reason: "no answer in time", final: false };
    case "UND_ERR_RES_CONTENT_LENGTH_MISMATCH":
      return { reason: "the answer was shorter than its Content-Length", final: false };
    default:
      return { reason: error instanceof Error ? error.message : String(error), final: false };
  }
}
