/**
 * The verdict on each account of a run over several profiles, as plain data (for the table on stderr and
 * for a JSON summary), and the exit status of the whole run from them.
 */
import { AccessRefusedError, ConnectionError, KeyRefusedError } from "../../api";
import {
  AccountsFailedError,
  AdreportError,
  AuthError,
  DataChangedError,
  exitCodeOf,
  ForbiddenError,
  PartialError,
  UnavailableError,
} from "../../core/errors";
import { ExitCode, type ExitCodeValue } from "../../core/exit-codes";

const OUTCOMES = [
  "ok",
  "no key",
  "key refused",
  "IP not whitelisted",
  "forbidden",
  "unreachable",
  "service failed",
  "data changed",
  "failed",
  "taken",
] as const;
export type Outcome = (typeof OUTCOMES)[number];

export interface AccountResult {
  profile: string;
  outcome: Outcome;
  /** Rows received from the service (0 for an account that failed). */
  rows: number;
  /** Wall time of this account, in milliseconds. */
  ms: number;
  /** What went wrong, one line, for an account that failed. */
  error?: string;
  /** What to do about the error, when the single-account run would have said. */
  hint?: string;
  /** IP not whitelisted: the address the service saw, when it said. */
  seenAddress?: string;
  /** The code a run of this account alone would have ended with (0 when ok). */
  exitCode: ExitCodeValue;
  /**
   * Taken (a fleet: several hosts running one list of accounts): by whom (`4242 on "build-2"`), and whether
   * that run held the account's lock when this one last tried (`held`) or had exported it in this round (`done`).
   */
  taken?: { by: string; as: "held" | "done" };
}

function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let at = error; at !== undefined && chain.length < 10; at = at instanceof Error ? at.cause : undefined)
    chain.push(at);
  return chain;
}

/** The outcome of an account whose export threw `error` (already in the CLI's words, see withCliHints). */
export function failedAccount(profile: string, error: unknown, ms: number): AccountResult {
  const chain = causes(error);
  const refused = chain.find((e): e is AccessRefusedError => e instanceof AccessRefusedError);
  const message = error instanceof Error ? error.message : String(error);
  const hint = error instanceof AdreportError && error.hint !== undefined ? { hint: error.hint } : {};
  const base = { profile, rows: 0, ms, error: message, ...hint, exitCode: exitCodeOf(error) };
  if (error instanceof AuthError) {
    return { ...base, outcome: chain.some((e) => e instanceof KeyRefusedError) ? "key refused" : "no key" };
  }
  if (error instanceof ForbiddenError) {
    if (refused?.reason === "ownership") return { ...base, outcome: "forbidden" };
    return {
      ...base,
      outcome: "IP not whitelisted",
      ...(refused?.address === undefined ? {} : { seenAddress: refused.address }),
    };
  }
  if (error instanceof DataChangedError) return { ...base, outcome: "data changed" };
  if (error instanceof UnavailableError) {
    const network = chain.some((e) => e instanceof ConnectionError);
    return { ...base, outcome: network ? "unreachable" : "service failed" };
  }
  return { ...base, outcome: "failed" };
}

/** An account another host of a fleet holds, or did in this round: not this run's, and not a failure. */
export function takenAccount(profile: string, by: string, as: "held" | "done", ms: number): AccountResult {
  return { profile, outcome: "taken", rows: 0, ms, exitCode: ExitCode.ok, taken: { by, as } };
}

/** Whether the account needs nothing more of this run: it did it, or another live run has it. */
export function settled(result: AccountResult): boolean {
  return result.outcome === "ok" || result.outcome === "taken";
}

export function okAccount(profile: string, rows: number, ms: number): AccountResult {
  return { profile, outcome: "ok", rows, ms, exitCode: ExitCode.ok };
}

/**
 * The error that ends the run, or undefined when every account succeeded: exit 6 when some failed and some
 * did not; when all failed, the code they share (all 3 when every key was refused), or 1 when they differ.
 */
export function runVerdict(results: readonly AccountResult[]): Error | undefined {
  const failed = results.filter((r) => !settled(r));
  if (failed.length === 0) return undefined;
  const names = failed.map((r) => r.profile).join(", ");
  if (failed.length < results.length) {
    return new PartialError(`partial: ${failed.length} of ${results.length} accounts failed: ${names}`);
  }
  const codes = new Set(failed.map((r) => r.exitCode));
  const outcomes = [...new Set(failed.map((r) => r.outcome))].join(", ");
  const [only] = codes;
  const code = codes.size === 1 && only !== undefined ? only : ExitCode.failed;
  return new AccountsFailedError(`every account failed (${outcomes}): ${names}`, code);
}
