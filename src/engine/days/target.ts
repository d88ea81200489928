/** The target of a run of whole days, opened by its kind (targets/registry.ts): day files or a table. */
import type { OpenTarget } from "../../targets/kind";
import { kindOf } from "../../targets/registry";
import type { EngineContext } from "../context";
import type { EngineEvents } from "../events";
import type { DayPlan } from "../plan/plan";

export type { OpenTarget };

/** The run writing: its id goes on a table's rows and in its adreport_loads, with the job's. */
export interface RunIds {
  runId: string;
  job: string;
}

export async function openDayTarget(
  ctx: EngineContext,
  plan: DayPlan,
  ids: RunIds,
  events: Pick<EngineEvents, "note">,
): Promise<OpenTarget> {
  const { write } = plan;
  return kindOf(plan.output.target).open(plan.output, {
    profile: plan.settings.profile.value ?? "",
    request: plan.request.request,
    cwd: ctx.cwd,
    now: plan.now,
    sqliteAddon: ctx.sqliteAddon(),
    connectTimeoutMs: plan.settings.timeout.value * 1000,
    ...ids,
    note: (text: string) => events.note(text),
    dayFiles: write && { formatter: await write.format.entry.load(), options: write.options },
  });
}
