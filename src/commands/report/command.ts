/** `adreport report`: flags only. The behaviour, and the libraries it needs, load from plan.ts and accounts.ts. */
import type { Command } from "@commander-js/extra-typings";
import { UsageError } from "../../core/errors";
import { checkRequestWords } from "../../engine/request-words";
import { whenFormError } from "../../engine/when";
import type { Context } from "../context";
import { declareReport } from "./flags";
import { checkSettingFlags } from "./setting-flags";

export function registerReport(program: Command, ctx: Context): void {
  const report = declareReport(program);
  // Refused before anything of the export loads (the contract's zod rules, undici, the heap bound the
  // entry applies before an action): a typo costs no more than a start.
  report.hook("preAction", () => {
    const flags = report.opts();
    for (const [flag, text] of [
      ["--from", flags.from],
      ["--to", flags.to],
    ] as const) {
      const refused = text === undefined ? undefined : whenFormError(text, flag);
      if (refused) throw refused;
    }
    checkSettingFlags(flags);
    checkRequestWords(flags);
  });
  report.action(async (flags) => {
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
  });
}
