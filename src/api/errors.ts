/**
 * The failures of the client that a user can do something about, as typed errors carrying facts: the status,
 * the service's code, the address it saw, the bound that stopped a read, the proxy in the way. Their hints
 * name nothing of the CLI (no command, flag or environment variable): src/commands/ words those from the
 * facts. Each extends the error kind of core/errors.ts that gives its exit code.
 */
import { AuthError, ForbiddenError, UnavailableError, UsageError } from "../core/errors";
import type { ProxyChoice } from "./route";

/** 401: the service refused the key. */
export class KeyRefusedError extends AuthError {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

/**
 * 403. `reason` is `address` when the service says (or does not say why, and so probably) the caller's
 * address is not on the key's whitelist, `ownership` when the thing asked for is another advertiser's.
 */
export class AccessRefusedError extends ForbiddenError {
  constructor(
    message: string,
    readonly reason: "address" | "ownership",
    /** The IP address the service's message names (the one it saw), if any. */
    readonly address: string | undefined,
    hint?: string,
  ) {
    super(message, { hint });
  }
}

/** 404: nothing answers the report path under the base URL. */
export class NoEndpointError extends UsageError {}

/** A 3xx: the key is not sent on to another address. */
export class RedirectedError extends UsageError {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** `1.5 MB`, for the messages about a body's size. */
function megabytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}

/** An answer's body went past the client's bound (`maxPageBytes`); not retried. */
export class PageTooLargeError extends UnavailableError {
  constructor(
    readonly page: string,
    readonly limitBytes: number,
    readonly seenBytes: number,
  ) {
    super(PageTooLargeError.describe(page, limitBytes, seenBytes));
  }

  /** The message, naming the bound as the caller knows it when `boundName` is given. */
  static describe(page: string, limitBytes: number, seenBytes: number, boundName?: string): string {
    const bound = boundName === undefined ? "bound" : `bound (${boundName})`;
    return `the answer to ${page} is larger than the ${megabytes(limitBytes)} ${bound}; stopped reading at ${megabytes(seenBytes)}`;
  }
}

/** What the user may have to fix when a connection fails, beyond what `hint` says. */
export type ConnectionRemedy = "check-base-url" | "trust-private-ca";

/** The connection failed, or the answer was cut off or came too late, on the last try. */
export class ConnectionError extends UnavailableError {
  constructor(
    message: string,
    readonly facts: {
      remedy?: ConnectionRemedy | undefined;
      /** The proxy that carried a request that got no answer: first of all, the proxy failed. */
      proxy?: ProxyChoice | undefined;
      hint?: string | undefined;
    },
  ) {
    super(message, { hint: facts.hint });
  }
}

/** Windows of a split report cannot be merged: the service's rows are not in the contract's order. */
export class UnmergeableRowsError extends UnavailableError {}
