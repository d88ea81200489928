/**
 * One account's entry in the --summary of a run over several: the fields of a single run's summary (`job`,
 * `from`, `to`, `days_written`, `days_changed`, `days_unchanged`, `requests`, `retries`, `throttled`), so
 * one parser reads both, with the account's own `profile`, `outcome` (ok, or why it failed: the account
 * table's words), `rows`, `ms` and `error`, as before. An account another host of a fleet has: outcome
 * `taken`, with `taken_by` (`4242 on "build-2"`, and since when for a lock) and `taken_as` (`held`: it ran
 * it when this run last tried; `done`: it had exported it in this round).
 */
import type { AccountResult } from "../shared/account-outcome";

/** `run`: the summary the account's run gave (undefined when it failed before its run began). */
export function accountSummary(result: AccountResult, run: Record<string, unknown> | undefined): object {
  const { profile, outcome, rows, ms, error, taken } = result;
  const { outcome: _runOutcome, error: _runError, rows: _runRows, ...figures } = run ?? {};
  return {
    profile,
    outcome,
    rows,
    ms: Math.round(ms),
    ...(error === undefined ? {} : { error }),
    ...(taken === undefined ? {} : { taken_by: taken.by, taken_as: taken.as }),
    job: null,
    requests: 0,
    retries: 0,
    throttled: 0,
    ...figures,
  };
}
