/**
 * The hints of the API's typed errors, in the CLI's words: the commands, flags, settings and environment
 * variables a user can act with. The API layer says what happened (the status, the address the service saw,
 * the proxy in the way); this says what to type.
 */
import {
  AccessRefusedError,
  ConnectionError,
  KeyRefusedError,
  NoEndpointError,
  PageTooLargeError,
  RedirectedError,
  UnmergeableRowsError,
} from "../api";
import { AuthError, ForbiddenError, UnavailableError, UsageError } from "../core/errors";

const CHECK_BASE_URL = "check the base URL (--base-url, ADREPORT_BASE_URL or the profile)";

const TRUST_PRIVATE_CA =
  "if this network uses a private certificate authority (a TLS-inspecting proxy, say), point NODE_EXTRA_CA_CERTS at its certificate in PEM form: NODE_EXTRA_CA_CERTS=/path/to/ca.pem adreport ...";

function connectionHint(error: ConnectionError): string | undefined {
  const { proxy, remedy, hint } = error.facts;
  if (proxy !== undefined) {
    return `requests go through the proxy ${proxy.shown} (from ${proxy.from}); check it, or exclude this host with NO_PROXY`;
  }
  if (remedy === "check-base-url") return CHECK_BASE_URL;
  if (remedy === "trust-private-ca") return TRUST_PRIVATE_CA;
  return hint;
}

/** `error` with the hint a user of the CLI needs; any other error as it is. The API's error stays its cause. */
export function withCliHints(error: unknown): unknown {
  const cause = { cause: error };
  if (error instanceof KeyRefusedError) {
    return new AuthError(error.message, {
      ...cause,
      hint: "the key is missing, invalid or expired: check ADREPORT_API_KEY or the profile (adreport keys test); ask the operator for a new key or a rotation (adreport keys request rotate --account <name>)",
    });
  }
  if (error instanceof AccessRefusedError && error.reason === "address") {
    return new ForbiddenError(error.message, {
      ...cause,
      hint: `this host's outgoing IP is probably not on the key's whitelist: ask the operator to add it (adreport keys request add-ip --account <name> --ip ${error.address ?? "<this host's static IP>"})`,
    });
  }
  if (error instanceof NoEndpointError) return new UsageError(error.message, { ...cause, hint: CHECK_BASE_URL });
  if (error instanceof RedirectedError) {
    return new UsageError(error.message, {
      ...cause,
      hint: "use that address as the base URL; adreport does not follow redirects with your key",
    });
  }
  if (error instanceof PageTooLargeError) {
    return new UnavailableError(
      PageTooLargeError.describe(error.page, error.limitBytes, error.seenBytes, "max-page-mb"),
      {
        ...cause,
        hint: "a page that large is unusual: lower --page-size, or raise the bound (adreport config set max-page-mb 256)",
      },
    );
  }
  if (error instanceof UnmergeableRowsError) {
    return new UnavailableError(error.message, {
      ...cause,
      hint: "ask for at most 90 days at a time (--no-split refuses longer ranges)",
    });
  }
  if (error instanceof ConnectionError) {
    return new UnavailableError(error.message, { ...cause, hint: connectionHint(error) });
  }
  return error;
}
