/**
 * A report written as whole days: `{date}` in --output (one file per date bucket), a database target,
 * or --incremental into either. The days are fetched (in 90-day windows, one after the other for daily and
 * hourly buckets), staged, compared with the job's state, and put in place together at the end: a failed
 * or interrupted run leaves every file, the table and the state as they were.
 */
import { type ApiEvent, openReport, openSplitReport, type Progress } from "../../api";
import type { ResolvedSettings } from "../../config/resolve";
import { requireApiKey } from "../../config/resolve";
import { DataChangedError, InterruptedError, UsageError } from "../../core/errors";
import { TimeZone } from "../../core/time-zone";
import type { ReportStream } from "../../format/formatter";
import { type DayRecord, differences } from "../../state/day-record";
import { jobId } from "../../state/job";
import type { DaySpan, DayTarget } from "../../targets/day-target";
import type { Context } from "../context";
import { deadline } from "../shared/deadline";
import { withCliHints } from "../shared/hints";
import { outputError } from "../shared/output";
import { reportApiFor } from "../shared/report-api";
import type { ReportFlags } from "./command";
import { refuseIncompleteDays, refuseShaping } from "./day-refusals";
import { bucketDays, spanOf } from "./day-span";
import { type IncrementalJob, jobIdentity, openIncrementalJob } from "./incremental-job";
import { progressView } from "./progress";
import { planRequest, type RequestPlan } from "./request";
import { countEvent, type DaySummary, writeSummary } from "./run-summary";
import { openDayTarget, type TargetChoice } from "./target-choice";
import { requestWarnings } from "./warnings";

const WHOLE_DAY = /^\d{4}-\d{2}-\d{2}$/;

export async function runDayReport(
  ctx: Context,
  flags: ReportFlags,
  settings: ResolvedSettings,
  choice: TargetChoice,
): Promise<{ rows: number }> {
  refuseShaping(flags, choice);
  const zone = settings.tz.value;
  if (zone !== undefined && zone !== TimeZone.UTC.name && flags.tz === undefined) {
    // --tz is refused; a zone from ADREPORT_TZ or the config would otherwise be dropped without a word.
    ctx.io.err.write(
      `adreport: warning: the time zone ${JSON.stringify(zone)} (${settings.tz.source}) is not used: ${choice.what} keeps the service's UTC days\n`,
    );
  }
  const pageSize = settings["page-size"].value;
  const incremental = flags.incremental === true;
  if (incremental && (flags.from !== undefined || flags.to !== undefined)) {
    throw new UsageError("--incremental computes the range itself: drop --from and --to", {
      hint: "the first run starts at --start; later runs continue from the last day exported",
    });
  }
  const basePlan = planRequest(flags, ctx.now(), pageSize);
  if (!basePlan.request.dimensions.includes("date")) {
    throw new UsageError(`${choice.what} needs date among the dimensions (--dims ...,date): it writes whole days`, {
      hint: `for example --dims ${[...basePlan.request.dimensions, "date"].join(",")}`,
    });
  }
  for (const warning of requestWarnings(flags, basePlan.request)) ctx.io.err.write(`adreport: warning: ${warning}\n`);
  const granularity = basePlan.request.granularity?.toLowerCase() ?? "day";
  const apiKey = requireApiKey(settings);

  let job: IncrementalJob | undefined;
  let plan: RequestPlan = basePlan;
  // An incremental run's range comes from its state: until it is read (a run refused by the lock never
  // reads it), the summary names the job and no range.
  const jobName = incremental ? jobId(jobIdentity(settings, basePlan.request, choice)) : undefined;
  const summary: DaySummary = {
    outcome: "ok",
    from: incremental ? undefined : basePlan.fromDate,
    to: incremental ? undefined : basePlan.toDate,
    days_written: 0,
    days_changed: 0,
    days_unchanged: 0,
    rows: 0,
    requests: 0,
    retries: 0,
  };
  if (!incremental && (!WHOLE_DAY.test(basePlan.request.from) || !WHOLE_DAY.test(basePlan.request.to))) {
    throw new UsageError(`${choice.what} writes whole days: --from and --to must be days (YYYY-MM-DD, -Nd, yesterday)`);
  }
  if (!incremental && choice.kind === "days") refuseIncompleteDays(basePlan.toDate, ctx.now());
  const target = await openDayTarget(ctx, choice, flags, settings, basePlan.request);
  try {
    if (incremental) {
      job = await openIncrementalJob(ctx, flags, settings, basePlan.request, choice);
      const range = job.range(granularity);
      if ("nothing" in range) {
        ctx.io.err.write(`adreport: ${range.nothing}\n`);
        summary.outcome = "nothing to do";
        summary.from = undefined;
        summary.to = undefined;
        await job.finished({ outcome: "nothing to do" });
        await writeSummary(ctx, flags, summary, job.id);
        return { rows: 0 };
      }
      if (range.warning !== undefined) ctx.io.err.write(`adreport: warning: ${range.warning}\n`);
      plan = planRequest({ ...flags, from: range.from, to: range.to }, ctx.now(), pageSize);
      summary.from = plan.fromDate;
      summary.to = plan.toDate;
    }
    await target.prepare(bucketDays(plan.fromDate, plan.toDate, granularity));
    await fetchAndWrite(ctx, flags, settings, apiKey, plan, granularity, target, job, summary);
    await job?.finished({ outcome: "ok", from: plan.fromDate, to: plan.toDate });
    await writeSummary(ctx, flags, summary, job?.id);
    return { rows: summary.rows };
  } catch (error) {
    await target.abort();
    summary.outcome = "failed";
    const failed = outputError(error, undefined) ?? withCliHints(error);
    summary.error = failed instanceof Error ? failed.message : String(failed);
    await job?.finished({ outcome: "failed", message: summary.error }).catch(() => undefined);
    await writeSummary(ctx, flags, summary, job?.id ?? jobName).catch(() => undefined);
    throw failed;
  } finally {
    await job?.release();
    await target.close();
  }
}

async function fetchAndWrite(
  ctx: Context,
  flags: ReportFlags,
  settings: ResolvedSettings,
  apiKey: string,
  plan: RequestPlan,
  granularity: string,
  target: DayTarget & { close(): Promise<void> },
  job: IncrementalJob | undefined,
  summary: DaySummary,
): Promise<void> {
  const view = await progressView(ctx.io, { quiet: flags.quiet === true, verbose: flags.verbose === true });
  const api = reportApiFor(ctx, settings, apiKey, {
    onEvent: (event: ApiEvent) => {
      countEvent(summary, event);
      view.onEvent(event);
    },
  });
  let progress: Progress | undefined;
  const limit = deadline(
    settings["max-time"].value,
    () => target.waiting() ?? (progress ? `${progress.rows} of ${progress.total} rows` : "the first page had not come"),
  );
  const interrupt = new AbortController();
  const stopListening = ctx.onSignal(() => {
    target.abortNow();
    interrupt.abort(new InterruptedError(`interrupted; ${target.description} was left as it was`));
  });
  const signal = AbortSignal.any([interrupt.signal, ...(limit.signal ? [limit.signal] : [])]);
  // --max-time also ends a database statement kept waiting by another session's locks.
  limit.signal?.addEventListener("abort", () => target.abortNow(), { once: true });
  const paging = {
    pageSize: settings["page-size"].value,
    concurrency: settings.concurrency.value,
    onProgress: (p: Progress) => {
      progress = p;
      view.onProgress(p);
    },
    signal,
  };
  const daily = granularity === "day" || granularity === "daily" || granularity === "hour" || granularity === "hourly";
  // Daily and hourly windows hold disjoint days: one after the other, so only one window's days are open.
  // Weeks and months may straddle a window boundary: merged, as without {date}.
  const windows = plan.windows ?? [{ from: plan.request.from, to: plan.request.to }];
  const passes: Array<{ windows: Array<{ from: string; to: string }>; span: DaySpan }> = daily
    ? windows.map((w) => {
        const span = spanOf(w.from, w.to, granularity);
        return { windows: [w], span };
      })
    : [{ windows, span: spanOf(plan.request.from, plan.request.to, granularity) }];
  const records = new Map<string, DayRecord>();
  try {
    for (let attempt = 1; ; attempt += 1) {
      try {
        records.clear();
        for (const pass of passes) {
          const opened =
            pass.windows.length > 1
              ? await openSplitReport(api, plan.request, pass.windows, paging)
              : await openReport(api, { ...plan.request, ...pass.windows[0] }, paging);
          const report: ReportStream = opened;
          for (const [day, record] of await target.stage(report, pass.span)) records.set(day, record);
        }
        break;
      } catch (error) {
        if (error instanceof DataChangedError && attempt === 1) {
          await target.restart();
          continue;
        }
        throw error;
      }
    }
    view.stop();
    const write = new Set<string>();
    for (const [day, record] of [...records].sort(([a], [b]) => (a < b ? -1 : 1))) {
      summary.rows += record.rows;
      const before = job?.recordOf(day);
      const changes = before ? differences(before, record) : [];
      // Only a day the state knows is compared with its output: every other day is written anyway.
      const found = before ? await target.found(day) : "missing";
      if (before && changes.length > 0) {
        ctx.io.err.write(`adreport: ${day}: ${changes.join(", ")}\n`);
        summary.days_changed += 1;
      } else if (before && found === "missing") {
        ctx.io.err.write(`adreport: ${day}: its file was missing; written again\n`);
        summary.days_changed += 1;
      } else if (before && found === "other") {
        ctx.io.err.write(`adreport: ${day}: its file was changed since it was written; written again\n`);
        summary.days_changed += 1;
      } else if (before) {
        summary.days_unchanged += 1;
      }
      if (!before || changes.length > 0 || found !== "as staged" || !job) write.add(day);
    }
    // For every target: written = new or changed content, unchanged = as the last run left it (docs/service.md §9).
    summary.days_written = write.size;
    if (signal.aborted) throw signal.reason;
    await target.commit(target.replacesAll ? new Set(records.keys()) : write);
    await job?.recordDays(records, plan.toDate);
  } catch (error) {
    view.stop();
    if (interrupt.signal.aborted) throw interrupt.signal.reason;
    if (limit.signal?.aborted) throw limit.signal.reason;
    throw error;
  } finally {
    limit.clear();
    stopListening();
    await api.close();
  }
}
