/**
 * An account of a fleet (the same run over several accounts started on several hosts at once) that another
 * run has: its job's lock is held by a live session (`held`), or a run of this round has already exported it
 * (`done`). The run over accounts counts it as taken, not failed; a run of one account is refused (exit 75)
 * as before.
 */
import { BusyError } from "../../core/busy-error";

export class JobTakenError extends BusyError {
  constructor(
    message: string,
    /** `held`: its lock is held now; `done`: a run of this round ended it. */
    readonly taken: "held" | "done",
    /** Who: `4242 on "build-2"` (and `since ...` for a lock). */
    readonly by: string,
    options?: { hint?: string | undefined },
  ) {
    super(message, options);
  }
}

/**
 * How long before this run another may have begun and still be of the same round: hosts of one fleet are
 * started at once (a schedule), within this of each other. A job whose last run began since then and ended
 * well is not exported again by a run over accounts.
 */
export const ROUND_SKEW_MS = 5 * 60_000;

/** The round this run over accounts belongs to: runs begun since `since` are of it. */
export interface FleetRound {
  readonly since: Date;
}
