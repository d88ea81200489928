/**
 * `adreport report ARGV` up to its plan: the words parsed by the real program (commander, the command's own
 * checks before its action), then planned as `report` plans them, with the settings of the Context's
 * environment and config folder; nothing is run. The one place tests name the planner's signature.
 */

import { reportActionFailure } from "../../src/cli/action-failure";
import { run } from "../../src/cli/main";
import type { Context } from "../../src/commands/context";
import { planAccounts, planOfAccount } from "../../src/commands/report/account-plan";
import type { ReportFlags } from "../../src/commands/report/flags";
import { planReport } from "../../src/commands/report/plan";
import { settingFlags } from "../../src/commands/shared/setting-flags";
import { loadSettings } from "../../src/commands/shared/settings";
import type { FanOutPlan } from "../../src/engine/accounts/fan-out";
import type { ReportPlan } from "../../src/engine/plan/plan";

export type Planned =
  | { plan: Readonly<ReportPlan>; warnings: string[] }
  /** What the user would read: the first line on stderr without `adreport: `, and the exit code. */
  | { refused: string; code: number };

/** Thrown from the program's last hook before the action, carrying the flags commander parsed. */
class Parsed {
  constructor(readonly flags: ReportFlags) {}
}

/** The flags `report ARGV` would reach its action with, or undefined when the program refused the line. */
async function parsedFlags(ctx: Context, argv: readonly string[]): Promise<ReportFlags | undefined> {
  try {
    await run(["report", ...argv], ctx, {
      beforeAction: (_, flags) => {
        throw new Parsed(flags as ReportFlags);
      },
      rethrow: (error) => error instanceof Parsed,
    });
  } catch (error) {
    if (error instanceof Parsed) return error.flags;
    throw error;
  }
  return undefined;
}

function refusal(stderr: string, code: number): Planned {
  const line = stderr.split("\n").find((text) => text.startsWith("adreport: ")) ?? stderr;
  return { refused: line.replace(/^adreport: /, ""), code };
}

/** `stderr()` reads what the Context's stderr holds (memory-context.ts). */
export async function planOfArgv(ctx: Context, stderr: () => string, argv: readonly string[]): Promise<Planned> {
  const flags = await parsedFlags(ctx, argv);
  if (flags === undefined) return refusal(stderr(), 2);
  const warnings: string[] = [];
  try {
    const settings = await loadSettings(ctx, settingFlags(flags));
    const plan = await planReport(ctx, flags, settings, (text) => warnings.push(text));
    return { plan, warnings };
  } catch (error) {
    const code = reportActionFailure(error, ctx.io, false);
    return refusal(stderr(), code);
  }
}

/** A run over several accounts planned (`--profiles`, `--all-profiles`): the fan-out's plan and each account's. */
export interface PlannedAccounts {
  readonly names: readonly string[];
  readonly fanOut: FanOutPlan;
  /** The environment an account's settings are resolved in. */
  envFor(profile: string): Record<string, string | undefined>;
  /** Account `profile`'s own plan, into `spoolFile` when the accounts share one output. */
  planOf(ctx: Context, profile: string, spoolFile: string | undefined): Promise<Readonly<ReportPlan>>;
}

/** `report ARGV` over several accounts, planned; a refusal throws. */
export async function accountsOfArgv(ctx: Context, argv: readonly string[]): Promise<PlannedAccounts> {
  const flags = await parsedFlags(ctx, argv);
  if (flags === undefined) throw new Error(`report ${argv.join(" ")}: refused by the program`);
  const accounts = await planAccounts(ctx, flags);
  return {
    names: accounts.names,
    fanOut: accounts.fanOut,
    envFor: accounts.envFor,
    planOf: (account, profile, spoolFile) => planOfAccount(account, accounts, profile, spoolFile),
  };
}
