/** Another run holds what this one needs (the lock of an incremental job): exit 75, naming the other run. */
import { AdreportError } from "./errors";
import { ExitCode } from "./exit-codes";

export class BusyError extends AdreportError {
  override readonly name = "BusyError";
  readonly exitCode = ExitCode.busy;
}

/**
 * A job of a fleet's account another run has (engine/days/job-taken.ts): its lock is held by a live session
 * (`held`), or a run of this round has already exported it (`done`). A run over accounts counts it taken, not
 * failed; a run of one account is refused (exit 75) as before.
 */
export class JobTakenError extends BusyError {
  constructor(
    message: string,
    readonly taken: "held" | "done",
    /** Who: `4242 on "build-2"` (and `since ...` for a lock). */
    readonly by: string,
    options?: { hint?: string | undefined },
  ) {
    super(message, options);
  }
}
