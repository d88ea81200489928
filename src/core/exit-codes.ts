/**
 * Exit codes of docs/service.md §9: the one list. `adreport --help` is written from EXIT_CODE_WORDS; the
 * README's table and docs/topics/exit-codes.md say each in full, and test/commands/exit-codes.test.ts holds
 * both to this list.
 */
export const ExitCode = {
  /** Done. */
  ok: 0,
  /** Failed: an output that could not be written (a file, stdout, a database target), or a system error. */
  failed: 1,
  /** Bad usage or input: a local validation failure or a 400 from the service. */
  usage: 2,
  /** Authentication: the key is missing, invalid or expired (401). */
  auth: 3,
  /** Forbidden: the IP is not whitelisted, or the resource belongs to someone else (403). */
  forbidden: 4,
  /** Network, server or rate-limit failure after retries, or data changed during the export. */
  unavailable: 5,
  /** Partial: a run over several accounts (--profiles) where some succeeded and some failed, named on stderr. */
  partial: 6,
  /** `adreport verify`: the target differs from the job's ledger (or from the service): one line a day on stdout. */
  differs: 7,
  /** `adreport status`: a job lags more than its --max-lag allows, its last run failed, or it has not run since. */
  alert: 8,
  /** A bug in adreport (sysexits' EX_SOFTWARE): an error no other kind describes. */
  internal: 70,
  /** Busy (sysexits' EX_TEMPFAIL): another run of the same job holds its lock; try again later. */
  busy: 75,
  /** Stopped by Ctrl-C (SIGINT) or SIGTERM: nothing half-written was left behind. */
  interrupted: 130,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** Each code in a few words, in order, for the end of `adreport --help`. */
export const EXIT_CODE_WORDS: Readonly<Record<ExitCodeValue, string>> = {
  [ExitCode.ok]: "done",
  [ExitCode.failed]: "failed (an output that could not be written)",
  [ExitCode.usage]: "bad usage or input",
  [ExitCode.auth]: "authentication (401)",
  [ExitCode.forbidden]: "forbidden (403)",
  [ExitCode.unavailable]: "network/server/rate limit after retries, or data changed",
  [ExitCode.partial]: "partial (some accounts of --profiles/--all-profiles failed, named on stderr)",
  [ExitCode.differs]: "verify found differences (one line a day on stdout)",
  [ExitCode.alert]: "status: a job lags more than --max-lag allows, failed or stalled",
  [ExitCode.internal]: "a bug in adreport (please report it)",
  [ExitCode.busy]: "busy (another run of the job holds its lock: retry later)",
  [ExitCode.interrupted]: "interrupted",
};

/** `0 done, 1 failed (...), ...`: every code of ExitCode, in order. */
export function exitCodesInWords(): string {
  return Object.values(ExitCode)
    .map((code) => `${code} ${EXIT_CODE_WORDS[code]}`)
    .join(", ");
}
