/** Runs a plan: an export into stdout or a file, or (loaded only then) a run of whole days. */
import type { EngineContext } from "../context";
import type { EngineEvents } from "../events";
import type { ReportPlan } from "../plan/plan";
import { type ReportDone, runExport } from "./export";

export async function runPlan(
  ctx: EngineContext,
  plan: Readonly<ReportPlan>,
  events: EngineEvents,
): Promise<ReportDone> {
  if (plan.kind === "days") return (await import("../days/export")).runDayExport(ctx, plan, events);
  return runExport(ctx, plan, events);
}
