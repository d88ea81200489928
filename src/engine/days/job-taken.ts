/**
 * A fleet: the same run over several accounts started on several hosts at once. An account whose job
 * another run has (its lock held by a live session, or exported in this round) is taken (core/busy-error.ts
 * JobTakenError), not exported again; the round is told by when runs began.
 */
import { JobTakenError } from "../../core/busy-error";
import type { LastRun } from "../../state/store";
import { kindOf } from "../../targets/registry";
import type { DayPlan } from "../plan/plan";

/**
 * How long before this run another may have begun and still be of the same round: hosts of one fleet are
 * started at once (a schedule), within this of each other. A job whose last run began since then and ended
 * well is not exported again by a run over accounts.
 */
export const ROUND_SKEW_MS = 5 * 60_000;

/** The round this run over accounts belongs to: runs begun since `since` are of it. */
export interface FleetRound {
  readonly since: Date;
}

/**
 * Who exported the job in this round (its last run began since the round did, less the skew, and did not
 * fail). A run asking more days again (`--lookback 30d` after a restatement) than that run fetched is not
 * of its round: it exports them.
 */
export function doneInRound(last: LastRun | undefined, round: FleetRound, lookbackDays: number): string | undefined {
  if (last === undefined || typeof last !== "object" || last === null) return undefined;
  if (last.outcome === "failed" || typeof last.started !== "string" || last.repair === true) return undefined;
  if (!(Date.parse(last.started) >= round.since.getTime() - ROUND_SKEW_MS)) return undefined;
  if (!(typeof last.lookbackDays === "number" && last.lookbackDays >= lookbackDays)) return undefined;
  return typeof last.by === "string" ? last.by : "another run";
}

/** The error of a job done in this round by `by`. */
export function doneElsewhere(id: string, by: string, last: LastRun): JobTakenError {
  return new JobTakenError(`job ${id} was exported in this round by ${by}, ended ${last.at}`, "done", by);
}

/**
 * A fleet's account looked at before anything is opened for it (a table, a job's connection and lock, a
 * few hundred milliseconds): taken when a live session holds its job, or a run of this round did it. A job
 * found free is opened and locked as always (engine/days/incremental-job.ts says the same of it, under its lock).
 */
export async function refuseTakenJob(
  round: FleetRound | undefined,
  plan: Pick<DayPlan, "output" | "incremental" | "settings">,
  id: string,
): Promise<void> {
  if (round === undefined || plan.incremental === undefined || plan.incremental.stateFile !== undefined) return;
  const kind = kindOf(plan.output.target);
  if (kind.fleet !== true || kind.lookAtJob === undefined) return;
  const look = await kind.lookAtJob(plan.output, id, plan.settings.timeout.value * 1000);
  if (look === undefined) return;
  if (look.holder !== undefined) {
    throw new JobTakenError(
      `another run of this job (${id}) is under way: pid ${look.holder} holds it`,
      "held",
      look.holder,
    );
  }
  const last = look.lastRun as LastRun | undefined;
  const by = doneInRound(last, round, plan.incremental.lookbackDays);
  if (by !== undefined && last !== undefined) throw doneElsewhere(id, by, last);
}
