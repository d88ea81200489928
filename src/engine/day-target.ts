/** The target of a run of whole days, opened: one file per date bucket, or a database table. */
import { randomUUID } from "node:crypto";
import { databaseIdentity } from "../core/database-label";
import { jobId } from "../state/job";
import type { DayTarget } from "../targets/day-target";
import type { EngineContext } from "./context";
import { dayFileTarget } from "./day-file-target";
import { jobIdentity } from "./incremental-job";
import type { DayPlan } from "./plan";

export type OpenTarget = DayTarget & { close(): Promise<void> };

export async function openDayTarget(
  ctx: EngineContext,
  plan: DayPlan,
  note?: (text: string) => void,
): Promise<OpenTarget> {
  const choice = plan.output;
  if (choice.kind === "days") {
    const { write } = plan;
    if (write === undefined) throw new Error("a {date} export without a format");
    const formatter = await write.format.entry.load();
    const target = dayFileTarget(choice.template, ctx.cwd, formatter, write.options);
    return { ...target, close: async () => undefined };
  }
  const { openTableTarget } = await import("../targets/table-target");
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
  return openTableTarget(table, {
    profile: plan.settings.profile.value ?? "",
    request: plan.request.request,
    cwd: ctx.cwd,
    now: plan.now,
    sqliteAddon: ctx.sqliteAddon(),
    runId: randomUUID(),
    job: jobId(jobIdentity(plan.settings, plan.request.request, plan.output)),
    ...(note ? { note } : {}),
  });
}
