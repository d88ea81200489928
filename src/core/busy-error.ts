/** Another run holds what this one needs (the lock of an incremental job): exit 75, naming the other run. */
import { AdreportError } from "./errors";
import { ExitCode } from "./exit-codes";

export class BusyError extends AdreportError {
  override readonly name = "BusyError";
  readonly exitCode = ExitCode.busy;
}
