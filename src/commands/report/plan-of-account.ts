/** One account's plan in a run over several: its own settings (key, zone), its plan derived from the run's base. */
import { type Account, planForAccount } from "../../engine/plan/for-account";
import type { ReportPlan } from "../../engine/plan/plan";
import type { Context } from "../context";
import { planPlace } from "../shared/plan-place";
import { loadSettings } from "../shared/settings";
import type { AccountsPlan } from "./account-plan";

/** `ctx`: the account's own (its environment, its stderr naming it). */
export async function planOfAccount(
  ctx: Context,
  run: AccountsPlan,
  profile: string,
  spoolFile: Account["spoolFile"],
): Promise<Readonly<ReportPlan>> {
  const settings = await loadSettings(ctx, run.settingFlagsOf(profile, spoolFile !== undefined));
  return planForAccount(run.base, { profile, settings, spoolFile }, planPlace(ctx, run.base.now, run.warnOnce));
}
