/**
 * A report line planned as `report` plans it (report-plan.ts), then run by the engine with a recording
 * EngineEvents (recorded-events.ts) in a memory Context whose HTTP requests go to `dispatcher` (a MockAgent).
 */
import type { Dispatcher } from "undici";
import type { ReportPlan } from "../../src/engine/plan/plan";
import { runPlan } from "../../src/engine/run/run";
import { type MemoryContext, memoryContext } from "./memory-context";
import { KEY, ORIGIN } from "./mock-api";
import { recordingEvents } from "./recorded-events";
import { planOfArgv } from "./report-plan";

export interface EngineRunOptions {
  dispatcher: Dispatcher;
  env?: Record<string, string | undefined>;
  cwd?: string;
  now?: Date;
}

/** The plan of `report ARGV`, which must be one (a refusal throws), in a Context of its own. */
export async function plannedRun(argv: readonly string[], options: EngineRunOptions) {
  const memory = memoryContext({
    ...options,
    env: { ADREPORT_API_KEY: KEY, ADREPORT_BASE_URL: ORIGIN, ...options.env },
  });
  const planned = await planOfArgv(memory.ctx, memory.stderr, argv);
  if (!("plan" in planned)) throw new Error(`report ${argv.join(" ")}: refused: ${planned.refused}`);
  return { memory, plan: planned.plan };
}

/** Runs `plan` in `memory`'s Context: what runPlan resolved with or threw, and what the engine told. */
export async function runRecorded(memory: MemoryContext, plan: Readonly<ReportPlan>) {
  const recorded = recordingEvents();
  const outcome = await runPlan(memory.ctx, plan, recorded.events).then(
    (done) => ({ done, error: undefined }),
    (error: unknown) => ({ done: undefined, error: error as Error }),
  );
  return { ...outcome, ...recorded };
}

/** `report ARGV` planned and run. */
export async function engineRun(argv: readonly string[], options: EngineRunOptions) {
  const { memory, plan } = await plannedRun(argv, options);
  return { memory, plan, ...(await runRecorded(memory, plan)) };
}
