/** Exit codes of docs/service.md §9. docs/topics/exit-codes.md is written from this list. */
export const ExitCode = {
  /** Done. */
  ok: 0,
  /** An output that could not be written, or anything unexpected: a bug, or a failure nothing else describes. */
  unexpected: 1,
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
  /** Stopped by Ctrl-C (SIGINT) or SIGTERM: nothing half-written was left behind. */
  interrupted: 130,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];
