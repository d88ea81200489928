/**
 * `adreport report --dry-run`: the plan made as for a run (every flag refused as a run refuses it), then
 * described instead of run. The text goes to stdout; with --summary json the same as one JSON object where
 * the summary goes. Nothing is sent, and no file, folder, table, state or lock is made.
 */

import { describePlan, type PlanDescription } from "../../engine/dry-run/description";
import { folderRefusal } from "../../engine/plan/output-folder";
import type { ReportPlan } from "../../engine/plan/plan";
import { checkOutputFolder, outputError } from "../../engine/run/output";
import { checkRecordFolder } from "../../engine/run/record";
import type { Context } from "../context";
import { type SummaryChoice, writeSummaryObject } from "../shared/summary-out";
import { planObject, planText } from "./plan-text";

export async function described(ctx: Context, plan: Readonly<ReportPlan>): Promise<PlanDescription> {
  if (plan.kind === "export") {
    if (plan.folder === undefined) await checkOutputFolder(ctx, plan.path);
    if (plan.record !== undefined) checkRecordFolder(ctx, plan.record);
  }
  const description = await describePlan(ctx, plan);
  const warning = description.incremental?.warning;
  if (warning !== undefined) ctx.io.err.write(`adreport: warning: ${warning}\n`);
  return description;
}

export async function writeSummary(ctx: Context, flags: SummaryChoice, object: object): Promise<void> {
  await writeSummaryObject(ctx, flags, object).catch((error: unknown) => {
    throw outputError(error, undefined) ?? error;
  });
}

/** One account's plan, shown; then refused as the run refuses it, when the run would be (its folder). */
export async function showPlan(ctx: Context, flags: SummaryChoice, plan: Readonly<ReportPlan>): Promise<void> {
  const description = await described(ctx, plan);
  ctx.io.out.write(planText(description));
  await writeSummary(ctx, flags, { dry_run: true, ...planObject(description) });
  const { folder } = description;
  if (folder !== undefined) throw folderRefusal(folder);
}
