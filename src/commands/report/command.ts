/** `adreport report`: flags only. The behaviour, and the libraries it needs, load from action.ts, plan.ts and accounts.ts. */
import type { Command } from "@commander-js/extra-typings";
import { checkRequestWords } from "../../engine/plan/request-words";
import { whenFormError } from "../../engine/plan/when";
import type { Context } from "../context";
import { checkSettingFlags } from "../shared/setting-flags";
import { reportAction } from "./action";
import { declareReport } from "./flags";

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
  report.action((flags) => reportAction(ctx, flags));
}
