/**
 * The error kinds of the CLI. Each carries its exit code; `cli/main.ts` is the one place that turns an
 * error into a printed line and a code. `hint` is a second line telling the user what to do.
 */
import { ExitCode, type ExitCodeValue } from "./exit-codes";

export abstract class AdreportError extends Error {
  abstract readonly exitCode: ExitCodeValue;
  readonly hint: string | undefined;
  /** Its lines are on stderr already (said before the command's data, which a reader may not wait for). */
  readonly said: boolean;

  constructor(message: string, options?: { hint?: string | undefined; cause?: unknown; said?: boolean }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.hint = options?.hint;
    this.said = options?.said === true;
  }
}

/** Bad flags, bad input, a request the contract refuses locally, or a 400 from the service. */
export class UsageError extends AdreportError {
  override readonly name = "UsageError";
  readonly exitCode = ExitCode.usage;
}

/** 401: the key is missing, invalid or expired. */
export class AuthError extends AdreportError {
  override readonly name = "AuthError";
  readonly exitCode = ExitCode.auth;
}

/** 403: the caller's IP is not whitelisted, or the resource belongs to someone else. */
export class ForbiddenError extends AdreportError {
  override readonly name = "ForbiddenError";
  readonly exitCode = ExitCode.forbidden;
}

/** The network, the server or its rate limit failed us, after every retry. */
export class UnavailableError extends AdreportError {
  override readonly name = "UnavailableError";
  readonly exitCode = ExitCode.unavailable;
}

/**
 * The service's rate limit or quota asks to wait longer than the run may (past its deadline, or a daily
 * quota spent): given up at once instead of sleeping into the limit. `waitMs` is how long it asked for.
 */
export class QuotaError extends AdreportError {
  override readonly name = "QuotaError";
  readonly exitCode = ExitCode.unavailable;

  constructor(
    message: string,
    readonly waitMs: number,
    readonly daily: boolean,
    options?: { hint?: string | undefined },
  ) {
    super(message, options);
  }
}

/** The rows changed while pages were being fetched, even after one restart. */
export class DataChangedError extends AdreportError {
  override readonly name = "DataChangedError";
  readonly exitCode = ExitCode.unavailable;
}

/** The output could not be opened or written (stdout, a file, a device or named pipe): exit 1, naming it and why. */
export class OutputError extends AdreportError {
  override readonly name = "OutputError";
  readonly exitCode = ExitCode.failed;
}

/** The user or the system stopped the command (SIGINT, SIGTERM). */
export class InterruptedError extends AdreportError {
  override readonly name = "InterruptedError";
  readonly exitCode = ExitCode.interrupted;
}

/** Some accounts of a run over several profiles succeeded and some failed (the table on stderr names them). */
export class PartialError extends AdreportError {
  override readonly name = "PartialError";
  readonly exitCode = ExitCode.partial;
}

/** `adreport verify` found days that differ: they are listed on stdout. */
export class DifferencesError extends AdreportError {
  override readonly name = "DifferencesError";
  readonly exitCode = ExitCode.differs;
}

/** `adreport status`: a job needs a look (lagging, failed or stalled); its status is on stdout as asked. */
export class StatusAlertError extends AdreportError {
  override readonly name = "StatusAlertError";
  readonly exitCode = ExitCode.alert;
}

/** Every account of a run over several profiles failed: the code of their common reason, or 1 when they differ. */
export class AccountsFailedError extends AdreportError {
  override readonly name = "AccountsFailedError";
  readonly exitCode: ExitCodeValue;

  constructor(message: string, exitCode: ExitCodeValue, options?: { hint?: string | undefined; cause?: unknown }) {
    super(message, options);
    this.exitCode = exitCode;
  }
}

/** The exit code for anything thrown out of a command: a system error (errno) failed it; anything else is a bug. */
export function exitCodeOf(error: unknown): ExitCodeValue {
  if (error instanceof AdreportError) return error.exitCode;
  return isSystemError(error) ? ExitCode.failed : ExitCode.internal;
}

/** An error the system gave (ENOSPC, EACCES, EIO...): about the machine, not a bug of adreport. */
export function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  const code = error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
  return typeof code === "string" && /^E[A-Z0-9]+$/.test(code);
}
