/**
 * What `adreport report` does once its flags have parsed and passed their checks: the command's action
 * (command.ts), and what the full build runs directly with the flags the front parsed (cli/parsed-report.ts).
 */
import { UsageError } from "../../core/errors";
import type { Context } from "../context";
import type { ReportFlags } from "./flags";

export async function reportAction(ctx: Context, flags: ReportFlags): Promise<void> {
  if (flags.dryRun === true && (flags.profiles !== undefined || flags.allProfiles === true)) {
    return (await import("./dry-run-accounts")).showAccountPlans(ctx, flags);
  }
  if (flags.profiles !== undefined || flags.allProfiles === true) {
    const { planAccounts } = await import("./account-plan");
    return (await import("./accounts")).planAndRunAccounts(ctx, (recording) => planAccounts(recording, flags));
  }
  const alone = [
    flags.accountConcurrency !== undefined && "--account-concurrency",
    flags.allowPartial === true && "--allow-partial",
    flags.output?.includes("{profile}") === true && "{profile} in --output",
  ].find((given) => given !== false);
  if (alone) throw new UsageError(`${alone} goes with --profiles or --all-profiles`);
  await (await import("./plan")).runReport(ctx, flags);
}

/** The action run with the flags the front parsed and checked as `report`'s (cli/parsed-report.ts). */
export function parsedReportAction(ctx: Context, flags: Readonly<Record<string, unknown>>): Promise<void> {
  return reportAction(ctx, flags as ReportFlags);
}
