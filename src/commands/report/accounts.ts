/**
 * `adreport report --profiles a,b` / `--all-profiles`: the base plan made once (account-plan.ts, one
 * reading of the clock), each account's plan derived from it with the account's own key and settings (its
 * zone: its {from} and {to}), run by the engine's fan-out (engine/accounts/fan-out.ts). The run ends with a table on
 * stderr and the exit status of account-outcome.ts.
 */

import { JobTakenError } from "../../core/busy-error";
import { fanOut } from "../../engine/accounts/fan-out";
import { outputError } from "../../engine/run/output";
import { runPlan } from "../../engine/run/run";
import type { Context } from "../context";
import {
  type AccountResult,
  failedAccount,
  okAccount,
  runVerdict,
  settled,
  takenAccount,
} from "../shared/account-outcome";
import { stderrEvents } from "../shared/stderr-events";
import { writeSummaryObject } from "../shared/summary-out";
import { accountStreams } from "./account-io";
import { type AccountsPlan, planOfAccount } from "./account-plan";
import { accountSummary } from "./account-summary";
import { writeAccountTable } from "./account-table";

/** `ctx` is the run's own. */
export async function runAccounts(ctx: Context, base: AccountsPlan): Promise<void> {
  const results: AccountResult[] = [];
  // Each account's run's own --summary object (engine/run/summary.ts), so one parser reads both shapes.
  const runSummaries: Array<Record<string, unknown> | undefined> = [];
  const accountsOf = () =>
    results
      .map((r, index) => (r === undefined ? undefined : accountSummary(r, runSummaries[index])))
      .filter((entry) => entry !== undefined);
  // Runs of other hosts begun with this one (a fleet) are of its round: what they exported is not again.
  const round = { since: base.base.now };
  const stopped = await fanOut(ctx, base.fanOut, stderrEvents(ctx, {}), async (index, spoolFile, onSignal) => {
    const profile = base.names[index] as string;
    const accountCtx: Context = {
      ...ctx,
      env: base.envFor(profile),
      io: accountStreams(ctx.io, profile),
      onSignal,
      observer: ctx.observer?.account(profile),
      round,
    };
    const started = performance.now();
    try {
      const plan = await planOfAccount(accountCtx, base, profile, spoolFile);
      const events = stderrEvents(accountCtx, {});
      const kept = {
        ...events,
        summary: async (object: object) => {
          runSummaries[index] = object as Record<string, unknown>;
          // Writes nothing (an account's summary choice is none), but tells the run's observer its outcome.
          await events.summary(object);
        },
      };
      const done = await runPlan(accountCtx, plan, kept);
      results[index] = okAccount(profile, done.rows, performance.now() - started);
      return true;
    } catch (error) {
      if (error instanceof JobTakenError) {
        results[index] = takenAccount(profile, error.by, error.taken, performance.now() - started);
        return "taken";
      }
      results[index] = failedAccount(profile, error, performance.now() - started);
      return false;
    }
  }).then(
    () => undefined,
    (error: unknown) => error,
  );
  if (stopped !== undefined) {
    // Stopped (Ctrl-C, SIGTERM) or the merged output failed: --summary says so too, with the accounts done.
    const error = stopped instanceof Error ? stopped.message : String(stopped);
    await writeSummaryObject(ctx, base.summary, { outcome: "failed", error, accounts: accountsOf() }).catch(
      () => undefined,
    );
    throw stopped;
  }
  const failed = results.some((r) => r.outcome !== "ok" && r.outcome !== "taken");
  if (failed || !base.quiet) writeAccountTable(ctx.io.err, results);
  const verdict = runVerdict(results);
  const summary = writeSummaryObject(ctx, base.summary, {
    outcome: verdict === undefined ? "ok" : results.some((r) => settled(r)) ? "partial" : "failed",
    accounts: accountsOf(),
  });
  await summary.catch((error: unknown) => {
    throw outputError(error, undefined) ?? error;
  });
  if (verdict) throw verdict;
}

/** Plans the run over accounts (saying what concerns them all once), then runs it. */
export async function planAndRunAccounts(ctx: Context, plan: (ctx: Context) => Promise<AccountsPlan>): Promise<void> {
  await runAccounts(ctx, await plan(ctx));
}
