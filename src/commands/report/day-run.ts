/**
 * A report written as whole days: `{date}` in --output (one file per date bucket), a database target,
 * or --incremental into either. The days are fetched (in 90-day windows, one after the other for daily and
 * hourly buckets), staged, compared with the job's state, and put in place together at the end: a failed
 * or interrupted run leaves every file, the table and the state as they were.
 */
import { type ApiEvent, openReport, openSplitReport, type Progress } from "../../api";
import type { ResolvedSettings } from "../../config/resolve";
import { requireApiKey } from "../../config/resolve";
import { isDerivedMetric } from "../../core/derived-metrics";
import { DataChangedError, InterruptedError, UsageError } from "../../core/errors";
import { TimeZone } from "../../core/time-zone";
import type { ReportStream } from "../../format/formatter";
import { type DayRecord, differences } from "../../state/day-record";
import type { DaySpan, DayTarget } from "../../targets/day-target";
import type { Context } from "../context";
import { deadline } from "../shared/deadline";
import { withCliHints } from "../shared/hints";
import { outputError } from "../shared/output";
import { reportApiFor } from "../shared/report-api";
import type { ReportFlags } from "./command";
import { bucketStart, dayNumber, daysBetween, dayText } from "./incremental";
import { type IncrementalJob, openIncrementalJob } from "./incremental-job";
import { progressView } from "./progress";
import { planRequest, type RequestPlan } from "./request";
import { countEvent, type DaySummary, writeSummary } from "./run-summary";
import { openDayTarget, type TargetChoice } from "./target-choice";
import { requestWarnings } from "./warnings";

const WHOLE_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Whole UTC days, as the service counts them, are what these targets keep and compare run to run: the flags
 * that re-shape rows (ratios, zones, comparisons, ordering, filling, columns) do not apply to them.
 */
function refuseShaping(flags: ReportFlags, choice: TargetChoice): void {
  const given = [
    flags.tz !== undefined && TimeZone.open(flags.tz) !== TimeZone.UTC && "--tz",
    flags.compare !== undefined && "--compare",
    flags.sort !== undefined && "--sort",
    flags.top !== undefined && "--top",
    flags.fill === true && "--fill",
    flags.fields !== undefined && "--fields",
    flags.dateFormat !== undefined && "--date-format",
    flags.metrics?.split(",").some((m) => isDerivedMetric(m.trim())) && "ratios in --metrics",
    (flags.format === "html" || flags.format === "chart") && `--format ${flags.format}`,
  ].filter((word): word is string => typeof word === "string");
  if (given.length === 0) return;
  throw new UsageError(
    `${given.join(", ")} cannot be used with ${choice.what}: it keeps the service's UTC days and counters`,
    {
      hint: "export the counters (views, spending, clicks, conversions) and compute ratios, zones and rankings from them downstream",
    },
  );
}

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
  const summary: DaySummary = {
    outcome: "ok",
    from: basePlan.fromDate,
    to: basePlan.toDate,
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
      plan = planRequest({ ...flags, from: range.from, to: range.to }, ctx.now(), pageSize);
      summary.from = plan.fromDate;
      summary.to = plan.toDate;
    }
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
    await writeSummary(ctx, flags, summary, job?.id).catch(() => undefined);
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
  const limit = deadline(settings["max-time"].value, () =>
    progress ? `${progress.rows} of ${progress.total} rows` : "the first page had not come",
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
      const present = await target.present(day);
      if (before && changes.length > 0) {
        ctx.io.err.write(`adreport: ${day}: ${changes.join(", ")}\n`);
        summary.days_changed += 1;
      } else if (before && !present && !target.replacesAll) {
        ctx.io.err.write(`adreport: ${day}: its file was missing; written again\n`);
        summary.days_changed += 1;
      } else if (before) {
        summary.days_unchanged += 1;
      }
      if (!before || changes.length > 0 || !present || !job) write.add(day);
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

function spanOf(from: string, to: string, granularity: string): DaySpan {
  const daily = granularity === "day" || granularity === "daily" || granularity === "hour" || granularity === "hourly";
  let first = from.slice(0, 10);
  let last = to.slice(0, 10);
  // A window ends on its last second: 23:59:59 of its last day.
  if (dayNumber(first) !== undefined && dayNumber(last) === undefined) last = first;
  // A week or month that starts before --from is dated by its first day: a table's rows of that bucket are
  // replaced too, or a run repeated would add them a second time.
  const firstDay = dayNumber(first);
  if (!daily && firstDay !== undefined) first = dayText(bucketStart(firstDay, granularity));
  return { from: first, to: last, everyDay: daily ? daysBetween(first, last) : [] };
}
