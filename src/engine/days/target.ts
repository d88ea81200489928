/** The target of a run of whole days, opened: one file per date bucket, or a database table. */
import { databaseIdentity } from "../../core/database-label";
import type { DayTarget } from "../../targets/day-target";
import { dayFileTarget } from "../../targets/files/target";
import type { EngineContext } from "../context";
import type { EngineEvents } from "../events";
import type { DayPlan } from "../plan/plan";

export type OpenTarget = DayTarget & { close(): Promise<void> };

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
  const choice = plan.output;
  if (choice.kind === "days") {
    const { write } = plan;
    if (write === undefined) throw new Error("a {date} export without a format");
    const formatter = await write.format.entry.load();
    const target = dayFileTarget(choice.template, ctx.cwd, formatter, write.options);
    return { ...target, close: async () => undefined };
  }
  const { openTableTarget } = await import("../../targets/table/target");
  const table =
    choice.kind === "sqlite"
      ? { kind: choice.kind, path: choice.path, table: choice.table }
      : {
          kind: choice.kind,
          url: choice.url,
          table: choice.table,
          shown: databaseIdentity(choice.url),
          connectTimeoutMs: plan.settings.timeout.value * 1000,
        };
  const options = {
    profile: plan.settings.profile.value ?? "",
    request: plan.request.request,
    cwd: ctx.cwd,
    now: plan.now,
    sqliteAddon: ctx.sqliteAddon(),
    ...ids,
    note: (text: string) => events.note(text),
  };
  return openTableTarget(table, options);
}
