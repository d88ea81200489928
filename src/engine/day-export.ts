/**
 * A report written as whole days: `{date}` in --output (one file per date bucket), a database target,
 * or --incremental into either. The days are fetched (in 90-day windows, one after the other for daily and
 * hourly buckets), staged, compared with the job's state, and put in place together at the end: a failed
 * or interrupted run leaves every file, the table and the state as they were.
 */
import { openReport, openSplitReport } from "../api";
import { bucketUnitOf } from "../core/calendar";
import { type DayRecord, differences } from "../state/day-record";
import { jobId } from "../state/job";
import type { DaySpan } from "../targets/day-target";
import type { EngineContext } from "./context";
import { bucketDays, spanOf } from "./day-span";
import { type OpenTarget, openDayTarget } from "./day-target";
import type { EngineEvents } from "./events";
import { withCliHints } from "./hints";
import { type IncrementalJob, jobIdentity, openIncrementalJob } from "./incremental-job";
import { outputError } from "./output";
import type { DayPlan } from "./plan";
import { planRequest, type RequestPlan } from "./request";
import { reportFailure, withSession } from "./session";
import { type DaySummary, summaryObject } from "./summary";

export async function runDayExport(ctx: EngineContext, plan: DayPlan, events: EngineEvents): Promise<{ rows: number }> {
  const base = plan.request;
  const { incremental } = plan;
  let job: IncrementalJob | undefined;
  let request: RequestPlan = base;
  // An incremental run's range comes from its state: until it is read (a run refused by the lock never
  // reads it), the summary names the job and no range.
  const jobName = incremental ? jobId(jobIdentity(plan.settings, base.request, plan.output)) : undefined;
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
    const reason = outputError(error, undefined) ?? withCliHints(error);
    summary.error = reason instanceof Error ? reason.message : String(reason);
    await job?.finished({ outcome: "failed", message: summary.error }).catch(() => undefined);
    await reportFailure(events, summaryObject(summary, job?.id ?? jobName));
    return reason;
  };
  // A table or folder that cannot be opened is a failed run too: --summary says so.
  const target = await openDayTarget(ctx, plan, (text) => events.note(text)).catch(async (error: unknown) => {
    throw await failed(error);
  });
  try {
    if (incremental) {
      job = await openIncrementalJob(ctx, { ...plan, incremental }, base.request);
      const range = job.range(plan.granularity);
      if ("nothing" in range) {
        events.note(range.nothing);
        summary.outcome = "nothing to do";
        summary.from = undefined;
        summary.to = undefined;
        await job.finished({ outcome: "nothing to do" });
        await events.summary(summaryObject(summary, job.id));
        return { rows: 0 };
      }
      if (range.warning !== undefined) events.warning(range.warning);
      request = planRequest({ ...plan.words, from: range.from, to: range.to }, plan.now, plan.paging.pageSize);
      summary.from = request.fromDate;
      summary.to = request.toDate;
    }
    await target.prepare(bucketDays(request.fromDate, request.toDate, plan.granularity));
    await fetchAndWrite(ctx, plan, events, request, target, job, summary);
    await job?.finished({ outcome: "ok", from: request.fromDate, to: request.toDate });
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

/** Daily and hourly windows hold disjoint days: one after the other, so only one window's days are open. */
function passesOf(request: RequestPlan, granularity: string) {
  const unit = bucketUnitOf(granularity);
  const daily = unit === "day" || unit === "hour";
  // Weeks and months may straddle a window boundary: merged, as without {date}.
  const windows = request.windows ?? [{ from: request.request.from, to: request.request.to }];
  const passes: Array<{ windows: Array<{ from: string; to: string }>; span: DaySpan }> = daily
    ? windows.map((w) => ({ windows: [w], span: spanOf(w.from, w.to, granularity) }))
    : [{ windows, span: spanOf(request.request.from, request.request.to, granularity) }];
  return passes;
}

async function fetchAndWrite(
  ctx: EngineContext,
  plan: DayPlan,
  events: EngineEvents,
  request: RequestPlan,
  target: OpenTarget,
  job: IncrementalJob | undefined,
  summary: DaySummary,
): Promise<void> {
  await withSession(
    {
      ctx,
      events,
      plan,
      counts: summary,
      howFar: (progress) =>
        target.waiting() ?? (progress ? `${progress.rows} of ${progress.total} rows` : "the first page had not come"),
      interrupted: () => `interrupted; ${target.description} was left as it was`,
      abortNow: () => target.abortNow(),
      abortOnDeadline: true,
    },
    async (session) => {
      const paging = { ...plan.paging, onProgress: session.onProgress, signal: session.signal };
      const records = new Map<string, DayRecord>();
      await session.withRestart(
        async () => {
          records.clear();
          for (const pass of passesOf(request, plan.granularity)) {
            const opened =
              pass.windows.length > 1
                ? await openSplitReport(session.api, request.request, pass.windows, paging)
                : await openReport(session.api, { ...request.request, ...pass.windows[0] }, paging);
            for (const [day, record] of await target.stage(opened, pass.span)) records.set(day, record);
          }
        },
        { canRestart: () => true, restart: () => target.restart() },
      );
      session.view.stop();
      const write = new Set<string>();
      for (const [day, record] of [...records].sort(([a], [b]) => (a < b ? -1 : 1))) {
        summary.rows += record.rows;
        const before = job?.recordOf(day);
        const changes = before ? differences(before, record) : [];
        // Only a day the state knows is compared with its output: every other day is written anyway.
        const found = before ? await target.found(day) : "missing";
        if (before && changes.length > 0) {
          events.dayChanged(day, changes.join(", "));
          summary.days_changed += 1;
        } else if (before && found === "missing") {
          events.dayChanged(day, "its file was missing; written again");
          summary.days_changed += 1;
        } else if (before && found === "other") {
          events.dayChanged(day, "its file was changed since it was written; written again");
          summary.days_changed += 1;
        } else if (before) {
          summary.days_unchanged += 1;
        }
        if (!before || changes.length > 0 || found !== "as staged" || !job) write.add(day);
      }
      // For every target: written = new or changed content, unchanged = as the last run left it (docs/service.md §9).
      summary.days_written = write.size;
      if (session.signal.aborted) throw session.signal.reason;
      await target.commit(target.replacesAll ? new Set(records.keys()) : write);
      await job?.recordDays(records, request.toDate);
    },
  );
}
