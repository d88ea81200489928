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
} from "../../api";
import type { KeyOwner } from "../../config/credentials";
import { AuthError, ForbiddenError, UnavailableError, UsageError } from "../../core/errors";

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

/**
 * What to do about a key the service refused (401), in words that fit whose key it is: a profile's is
 * rotated by the operator; one from ADREPORT_API_KEY or --api-key belongs to no profile, so no profile's
 * rotation is offered for it. Every command in a hint runs as printed.
 */
export function keyRefusedHint(owner: KeyOwner): string {
  if (owner.kind === "profile") {
    return `ask the operator for a new key or a rotation: adreport keys request rotate --profile ${owner.profile}`;
  }
  if (owner.kind === "environment") {
    return "ADREPORT_API_KEY holds the refused key and belongs to no profile: correct it, or unset it to use a stored profile's key (adreport keys list)";
  }
  if (owner.kind === "flag") {
    return "the key given with --api-key was refused: correct it, or use a stored profile's key (adreport keys list)";
  }
  return "check the key (adreport keys test), or ask the operator for a new one";
}

/** What to do about a 403 for this host's address: the request to the operator, for the key's account. */
export function notWhitelistedHint(owner: KeyOwner, address: string | undefined): string {
  if (address === undefined) {
    return `ask the operator to whitelist this host's static outgoing IP (the service did not say which address it saw; once you know it: adreport keys request add-ip --help)`;
  }
  if (owner.kind === "profile") {
    return `ask the operator to whitelist this host's static IP: adreport keys request add-ip --profile ${owner.profile} --ip ${address}`;
  }
  const whose = owner.kind === "flag" ? "the key given with --api-key" : "the key in ADREPORT_API_KEY";
  // No profile, so no account we know: the request names one only the user can (keys request add-ip --account).
  return `ask the operator to whitelist this host's static IP ${address} for ${whose}, naming your account (the letter: adreport keys request add-ip --help)`;
}

/**
 * `error` with the hint a user of the CLI needs; any other error as it is. The API's error stays its cause.
 * `owner` is whose key was sent (credentials.ts), for the hints about the key.
 */
export function withCliHints(error: unknown, owner: KeyOwner): unknown {
  const cause = { cause: error };
  if (error instanceof KeyRefusedError) {
    return new AuthError(error.message, {
      ...cause,
      hint: keyRefusedHint(owner),
    });
  }
  if (error instanceof AccessRefusedError && error.reason === "address") {
    return new ForbiddenError(error.message, {
      ...cause,
      hint: notWhitelistedHint(owner, error.address),
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
