/**
 * `report` run with the flags the front parsed and checked (front.ts): the full build would load commander
 * and the flag definitions and parse the same line again (issue 35). What run() does around an action is
 * done here the same way: the hook before it (the heap bound), the action, and the exit code and message of
 * what it threw.
 */
import type { Context } from "../commands/context";
import { parsedReportAction } from "../commands/report/action";
import { ExitCode } from "../core/exit-codes";
import { reportActionFailure } from "./action-failure";

export async function runParsedReport(
  argv: readonly string[],
  ctx: Context,
  flags: Readonly<Record<string, unknown>>,
  beforeAction: (command: readonly string[], flags: Readonly<Record<string, unknown>>) => Promise<void>,
): Promise<number> {
  try {
    await beforeAction(["report"], flags);
    // run() hands a command the line it runs in its context (a recording keeps it).
    await parsedReportAction({ ...ctx, argv }, flags);
    return ExitCode.ok;
  } catch (error) {
    return reportActionFailure(error, ctx.io, ctx.env.ADREPORT_DEBUG !== undefined);
  }
}
