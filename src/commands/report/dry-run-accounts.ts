/**
 * `adreport report --dry-run --profiles a,b` / `--all-profiles`: each account's plan (dry-run.ts), planned
 * as a run over those accounts plans it, in the order named.
 */
import { printable } from "../../core/printable";
import { folderRefusal } from "../../engine/plan/output-folder";
import type { Context } from "../context";
import { type AccountResult, failedAccount, okAccount, runVerdict } from "../shared/account-outcome";
import { accountStreams } from "./account-io";
import { planAccounts, planOfAccount } from "./account-plan";
import { described, writeSummary } from "./dry-run";
import type { ReportFlags } from "./flags";

import { planObject, planText } from "./plan-text";

const indented = (text: string) => text.replace(/^(?=.)/gm, "  ");

/**
 * --profiles/--all-profiles: each account's plan, in the order named. An account a run would fail before
 * any request (no key, a state that is not its own) is shown failed, and the exit status is the run's.
 */
export async function showAccountPlans(ctx: Context, flags: ReportFlags): Promise<void> {
  const hints = new Set<string>();
  const base = await planAccounts(ctx, flags);
  const results: AccountResult[] = [];
  const accounts: object[] = [];
  for (const profile of base.names) {
    const accountCtx: Context = { ...ctx, env: base.envFor(profile), io: accountStreams(ctx.io, profile) };
    try {
      const description = await described(accountCtx, await planOfAccount(accountCtx, base, profile, undefined));
      // Refused as its run would be (planAccounts finds every folder first: only one gone since).
      if (description.folder !== undefined) throw folderRefusal(description.folder);
      ctx.io.out.write(`profile ${profile}:\n${indented(planText(description))}`);
      accounts.push({ profile, ...planObject(description) });
      results.push(okAccount(profile, 0, 0));
    } catch (error) {
      const failed = failedAccount(profile, error, 0);
      const message = printable(failed.error ?? "");
      ctx.io.out.write(`profile ${profile}:\n  ${failed.outcome}: ${message}\n`);
      // Each hint once, as the run says them: a flag's refusal is every account's.
      const hint = failed.hint === undefined || hints.has(failed.hint) ? "" : `hint: ${printable(failed.hint)}\n`;
      if (failed.hint !== undefined) hints.add(failed.hint);
      ctx.io.err.write(`adreport: ${profile}: ${message}\n${hint}`);
      accounts.push({ profile, outcome: failed.outcome, error: failed.error });
      results.push(failed);
    }
  }
  const verdict = runVerdict(results);
  const ok = results.filter((r) => r.outcome === "ok").length;
  const outcome = verdict === undefined ? "planned" : ok > 0 ? "partial" : "failed";
  await writeSummary(ctx, flags, { dry_run: true, outcome, accounts });
  if (verdict) throw verdict;
}
