/**
 * `adreport report` for one account: its flags' words, with the resolved settings and one reading of the
 * clock, made into the plan the engine runs (engine/plan/report-plan.ts), then run with its events shown.
 */
import type { ResolvedSettings } from "../../config/resolve";
import type { ReportPlan } from "../../engine/plan/plan";
import { planWords, reportWordsOf } from "../../engine/plan/report-plan";
import { runPlan } from "../../engine/run/run";
import type { Context } from "../context";
import { planPlace } from "../shared/plan-place";
import { settingFlags } from "../shared/setting-flags";
import { loadSettings } from "../shared/settings";
import { stderrEvents } from "../shared/stderr-events";
import type { ReportFlags } from "./flags";

/** The plan of one account's report: every warning said once, as planning finds it. */
export function planReport(
  ctx: Context,
  flags: ReportFlags,
  settings: ResolvedSettings,
  warn: (text: string) => void,
): Promise<Readonly<ReportPlan>> {
  return planWords(planPlace(ctx, ctx.now(), warn), reportWordsOf(flags), settings);
}

/** `adreport report` for one account: its settings, the plan made once, the engine's run, its events shown. */
export async function runReport(ctx: Context, flags: ReportFlags): Promise<void> {
  if (flags.apiKey !== undefined) {
    ctx.io.err.write(
      "adreport: warning: --api-key is visible to other users of this machine (ps); prefer ADREPORT_API_KEY or a profile\n",
    );
  }
  const settings = await loadSettings(ctx, settingFlags(flags));
  const events = stderrEvents(ctx, flags, flags.quiet !== true);
  const plan = await planReport(ctx, flags, settings, events.warning);
  if (flags.dryRun === true) return (await import("./dry-run")).showPlan(ctx, flags, plan);
  await runPlan(ctx, plan, events);
}
