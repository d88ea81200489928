/** The database errors both backends raise, named here so the commands and the HTTP layer load neither driver. */

/** The database given is not one `serve` can use (missing, foreign, of another version): the operator's to fix. */
export class DatabaseError extends Error {
  override readonly name = "DatabaseError";
  /** What to do about it, when there is more to say than the message. */
  readonly hint: string | undefined;
  constructor(message: string, options?: { hint?: string | undefined }) {
    super(message);
    this.hint = options?.hint;
  }
}

/**
 * The database cannot be reached now (refused, reset, shut down): worth trying again later. Declared here,
 * not beside the pg code, so the commands can name it without loading PostgreSQL's driver.
 */
export class DatabaseUnreachableError extends Error {
  override readonly name = "DatabaseUnreachableError";
}

/** The database cannot be read now (answered 503); it is tried again after `retryAfterSeconds`. */
export class DatabaseUnavailableError extends Error {
  override readonly name = "DatabaseUnavailableError";
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** A fact that contradicts what the database already says (an ad moving to another advertiser, say). */
export class ConflictError extends Error {
  override readonly name = "ConflictError";
  /** The line (or position) of the fact, where the writer knows it. */
  at: number | undefined;
}
