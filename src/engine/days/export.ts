/**
 * A report written as whole days: `{date}` in --output (one file per date bucket), a database target,
 * or --incremental into either. The days are fetched (in 90-day windows, one after the other for daily and
 * hourly buckets), staged, compared with the job's state, and put in place: an incremental job a window at
 * a time, recorded in its state as each is in (engine/days/units.ts); any other run together at the end, so a failed
 * or interrupted run leaves every file and the table as they were.
 */
import { randomBytes } from "node:crypto";
import { keyOwner } from "../../config/resolve";
import type { EngineContext } from "../context";
import type { EngineEvents } from "../events";
import type { IncrementalRange } from "../plan/incremental";
import { readBackFormat } from "../plan/output-format";
import type { DayPlan } from "../plan/plan";
import { planRequest, type RequestPlan } from "../plan/request";
import { withCliHints } from "../run/hints";
import { outputError } from "../run/output";
import { reportFailure, type Session } from "../run/session";
import { type DaySummary, summaryObject } from "../run/summary";
import { daysBefore } from "./auto-horizon";
import { planAuto } from "./auto-plan";
import { type AutoOutcome, decideAuto, nextAutoState } from "./auto-run";
import { grainsOf } from "./check-digest";
import { type IncrementalJob, jobIdentity, openIncrementalJob } from "./incremental-job";
import { earlierJobId, jobId } from "./job-id";
import { refuseOtherOwner } from "./job-state";
import { jobStore, jobStoreFor } from "./job-stores";
import { refuseTakenJob } from "./job-taken";
import { countingWaits, runFigures, type WaitTally } from "./run-record";
import { bucketDays } from "./span";
import { openDayTarget } from "./target";
import { type AutoWrite, writeUnits } from "./write";

export interface DayRunOptions {
  /** Re-export exactly these days through the job (`verify --repair`): its last day stays where it is. */
  readonly repair?: { readonly from: string; readonly to: string };
  /** The job's own base URL, when its days are fetched from another service (`verify --repair --base-url`). */
  readonly jobBaseUrl?: string;
}

/** A run's id, in the ledger and on a table's rows: when it started (UTC) and 6 random hex digits. */
function newRunId(now: Date): string {
  return `${now.toISOString().replace(/[-:]|\.\d+/g, "")}-${randomBytes(3).toString("hex")}`;
}

export async function runDayExport(
  ctx: EngineContext,
  plan: DayPlan,
  events: EngineEvents,
  options: DayRunOptions = {},
): Promise<{ rows: number }> {
  const base = plan.request;
  const { incremental } = plan;
  const { repair, jobBaseUrl } = options;
  const started = ctx.now();
  const runId = newRunId(started);
  const tally: WaitTally = { waits: 0, waitedMs: 0 };
  const figures = () => ({ ...runFigures(summary, runId, started), ...tally, ...(repair ? { repair: true } : {}) });
  let job: IncrementalJob | undefined;
  let request: RequestPlan = base;
  // An incremental run's range comes from its state: until it is read (a run refused by the lock never
  // reads it), the summary names the job and no range.
  const identity = jobIdentity(plan.settings, base.request, plan.output, jobBaseUrl);
  const id = jobId(identity);
  const jobName = incremental ? id : undefined;
  const summary: DaySummary = {
    outcome: "ok",
    from: incremental ? undefined : base.fromDate,
    to: incremental ? undefined : base.toDate,
    days_written: 0,
    days_changed: 0,
    days_unchanged: 0,
    rows: 0,
    requests: 0,
    retries: 0,
    throttled: 0,
  };
  const failed = async (error: unknown): Promise<unknown> => {
    summary.outcome = "failed";
    const reason = outputError(error, undefined) ?? withCliHints(error, keyOwner(plan.settings));
    summary.error = reason instanceof Error ? reason.message : String(reason);
    await job?.finished({ outcome: "failed", message: summary.error, ...figures() }).catch(() => undefined);
    await reportFailure(events, summaryObject(summary, job?.id ?? jobName));
    return reason;
  };
  // Days of another job's output: refused before anything is opened (an incremental job's first run, under
  // its lock, in openIncrementalJob). A repair writes its own job's days.
  const owner = { identity, id, earlier: earlierJobId(identity), incremental: false };
  if (!incremental && !repair) {
    await refuseOtherOwner(plan.stateFolder, ctx.user, owner).catch(async (error: unknown) => {
      throw await failed(error);
    });
  }
  // A fleet's account another host has: taken before its table and job are opened (engine/days/job-taken.ts).
  if (!repair) {
    await refuseTakenJob(ctx.round, plan, id).catch(async (error: unknown) => {
      throw await failed(error);
    });
  }
  // A table or folder that cannot be opened is a failed run too: --summary says so.
  const target = await openDayTarget(ctx, plan, { runId, job: id }, events).catch(async (error: unknown) => {
    throw await failed(error);
  });
  if (!incremental && !repair) {
    // The jobs its database keeps too, once it is reached (its own words first when it cannot be).
    const store = jobStoreFor({
      target: plan.output.target,
      stateFile: undefined,
      cwd: ctx.cwd,
      sqliteAddon: ctx.sqliteAddon(),
      connectTimeoutMs: plan.settings.timeout.value * 1000,
      connect: plan.output.given,
    });
    if (store !== jobStore()) {
      await refuseOtherOwner(plan.stateFolder, ctx.user, owner, store)
        .catch(async (error: unknown) => {
          await target.close();
          throw await failed(error);
        })
        .finally(() => store.close());
    }
  }
  try {
    if (incremental) {
      const opened = { ...plan, incremental, write: fileWrite(plan), jobBaseUrl };
      job = await openIncrementalJob(ctx, opened, base.request, events);
      const range: IncrementalRange = repair ? { from: repair.from, to: repair.to } : job.range(plan.granularity);
      if ("nothing" in range) {
        events.note(range.nothing);
        summary.outcome = "nothing to do";
        summary.from = undefined;
        summary.to = undefined;
        await job.finished({ outcome: "nothing to do", ...figures() });
        await events.summary(summaryObject(summary, job.id));
        return { rows: 0 };
      }
      if (range.warning !== undefined) events.warning(range.warning);
      request = planRequest({ ...plan.words, from: range.from, to: range.to }, plan.now, plan.paging.pageSize);
      summary.from = request.fromDate;
      summary.to = request.toDate;
    }
    const counted = countingWaits(events, tally);
    const auto =
      job && incremental?.auto && !repair
        ? autoRun(ctx, plan, job, request, { runId, summary, events: counted })
        : undefined;
    await target.prepare(bucketDays(auto?.earliest ?? request.fromDate, request.toDate, plan.granularity));
    await writeUnits({
      ctx,
      plan,
      events: counted,
      request,
      target,
      job,
      summary,
      runId,
      checkpoints: !repair,
      auto: auto?.write,
    });
    await auto?.record();
    await job?.finished({ outcome: "ok", from: request.fromDate, to: request.toDate, ...figures() });
    await events.summary(summaryObject(summary, job?.id));
    return { rows: summary.rows };
  } catch (error) {
    await target.abort();
    throw await failed(error);
  } finally {
    await job?.release();
    await target.close();
  }
}

/** How a job's day files are written, kept in its state for `verify`. */
function fileWrite(plan: DayPlan) {
  if (plan.write === undefined) return undefined;
  const format = readBackFormat(plan.write.format.entry);
  if (format === undefined) return undefined;
  const { delimiter, bom, spreadsheet } = plan.write.options;
  return { format, delimiter, bom, spreadsheet };
}

/**
 * --lookback auto: the plan from the job's ledger, the decision made in the session (the totals request),
 * and what the ledger keeps of it, written with the days (and once more at the end when no day followed).
 * A job whose last check found nothing moved fetches its new days while the totals are asked (a run where
 * nothing changed then takes about as long as one of the new days alone); any other job waits for the
 * totals, so that moved days next to the new ones go in the same requests.
 */
function autoRun(
  ctx: EngineContext,
  plan: DayPlan,
  job: IncrementalJob,
  request: RequestPlan,
  run: { runId: string; summary: DaySummary; events: EngineEvents },
) {
  const state = job.state();
  const planned = planAuto({
    state,
    newFrom: request.fromDate,
    end: request.toDate,
    dimensions: request.request.dimensions,
    pageSize: plan.paging.pageSize,
  });
  const back = daysBefore(planned.newFrom, planned.fallbackDays);
  const fallbackFrom = planned.firstDay !== undefined && back < planned.firstDay ? planned.firstDay : back;
  const earliest = [planned.checked[0] ?? planned.newFrom, fallbackFrom].sort()[0] as string;
  const last = planned.auto.decisions.at(-1);
  const quiet = planned.mode === "check" && last?.mode === "checked" && last.refetched.length === 0;
  let outcome: AutoOutcome | undefined;
  const restated: string[] = [];
  const spanPlan = (span: { from: string; to: string }) =>
    planRequest({ ...plan.words, from: span.from, to: span.to }, plan.now, plan.paging.pageSize);
  const ledger = () => {
    if (outcome === undefined) return undefined;
    // The totals' digests win over those of the days' rows: the next check compares totals with totals.
    const refetching = new Set<string>();
    for (const span of outcome.spans) {
      for (let day = span.from; day <= span.to && day < planned.newFrom; day = daysBefore(day, -1)) refetching.add(day);
    }
    // The new days of a quiet run were fetched beside the totals, which may be newer than their rows (the
    // service restated one in between): their rows' own digests stay, so the next check compares with those.
    const checks = quiet ? new Map([...outcome.checks].filter(([day]) => day < planned.newFrom)) : outcome.checks;
    return { auto: nextAutoState(planned, outcome, restated), checks, refetching };
  };
  job.withAuto(ledger);
  const decide = (session: Session) =>
    decideAuto(session.api, request.request, planned, state, {
      id: run.runId,
      at: ctx.now().toISOString(),
      pageSize: plan.paging.pageSize,
      concurrency: plan.paging.concurrency,
      signal: session.signal,
      ...(quiet ? { fetchingNewDays: true } : {}),
    });
  const decided = (found: AutoOutcome) => {
    outcome = found;
    if (found.warning !== undefined) run.events.warning(found.warning);
    run.summary.from = found.spans[0]?.from ?? request.fromDate;
  };
  // Settled either way, so that a failure while the new days are fetched leaves no promise unwatched.
  let pending: Promise<{ found: AutoOutcome } | { error: unknown }> | undefined;
  const answered = async () => {
    const answer = await pending;
    if (answer === undefined) return;
    if ("error" in answer) throw answer.error;
    if (outcome === undefined) decided(answer.found);
  };
  const write: AutoWrite = {
    grains: grainsOf(request.request.dimensions),
    restated,
    async *plans(session) {
      if (!quiet) {
        decided(await decide(session));
        for (const span of outcome?.spans ?? []) yield spanPlan(span);
        return;
      }
      pending = decide(session).then(
        (found) => ({ found }),
        (error: unknown) => ({ error }),
      );
      yield spanPlan({ from: planned.newFrom, to: planned.end });
      await answered();
      for (const span of outcome?.spans ?? []) if (span.from < planned.newFrom) yield spanPlan(span);
    },
    // The new days wait for the totals before they are put in place: one write of the state holds both.
    beforeCommit: answered,
  };
  return {
    earliest,
    write,
    async record() {
      await job.recordAuto();
    },
  };
}
