/** `adreport report`: settings, a checked request, every page through a formatter into the sink. */
import { openReport, openSplitReport, type Progress, RequestSlots } from "../../api";
import { requireApiKey } from "../../config/resolve";
import { DataChangedError, InterruptedError, OutputError } from "../../core/errors";
import { TimeZone } from "../../core/time-zone";
import type { Sink } from "../../io/sink";
import { fillGaps } from "../../transform/fill";
import { transformReport } from "../../transform/pipeline";
import type { Context } from "../context";
import { deadline } from "../shared/deadline";
import { withCliHints } from "../shared/hints";
import { checkOutput, isStdoutPath, openOutput, outputError } from "../shared/output";
import { reportApiFor } from "../shared/report-api";
import { loadSettings } from "../shared/settings";
import type { ReportFlags } from "./command";
import { planComparedPeriod } from "./compare-plan";
import { countingRows, emptyNote } from "./empty-note";
import { chooseOutputFormat } from "./output-format";
import { checkPictureRequest, pictureOptions } from "./picture-options";
import { progressView } from "./progress";
import { openRecorder } from "./record";
import { planRequest, type RequestPlan } from "./request";
import { countEvent, writeSummary } from "./run-summary";
import { planShape } from "./shape";
import { chooseDayTarget } from "./target-choice";
import { inZoneAndCompared } from "./time-stages";
import { requestWarnings, watchAdInCampaign } from "./warnings";

export function outputPath(template: string, plan: RequestPlan): string {
  return template.replaceAll("{from}", plan.fromDate).replaceAll("{to}", plan.toDate);
}

/** Where --tz's zone came from, for its messages. */
export function tzGiven(source: string): string {
  return source === "flag" ? "--tz" : source === "environment" ? "ADREPORT_TZ" : `the tz setting (${source})`;
}

/** The settings a report's flags give, over the environment, the profile and the config file. */
export function reportSettingFlags(flags: ReportFlags, profile = flags.profile) {
  return {
    "base-url": flags.baseUrl,
    profile,
    format: flags.format,
    "page-size": flags.pageSize,
    concurrency: flags.concurrency,
    timeout: flags.timeout,
    retries: flags.retries,
    "max-time": flags.maxTime,
    delimiter: flags.delimiter,
    spreadsheet: flags.spreadsheet,
    "api-key": flags.apiKey,
    tz: flags.tz,
  };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** How far an export got, for the message of --max-time. */
function progressText(progress: Progress | undefined): string {
  if (progress === undefined) return "the first page had not come";
  const n = (value: number) => value.toLocaleString("en-US");
  return `${n(progress.page)} of ${n(progress.pages)} pages, ${n(progress.rows)} of ${n(progress.total)} rows`;
}

/** What one export did, for a run over several accounts (accounts.ts). */
export interface ReportDone {
  /** Rows received from the service. */
  rows: number;
}

/**
 * `keepCounters`: rows keep the counters of their ratios beside the output metrics, for an output that sums
 * them after this run (the table of a run over several accounts).
 */
export async function runReport(
  ctx: Context,
  flags: ReportFlags,
  { keepCounters = false }: { keepCounters?: boolean } = {},
): Promise<ReportDone> {
  if (flags.apiKey !== undefined) {
    ctx.io.err.write(
      "adreport: warning: --api-key is visible to other users of this machine (ps); prefer ADREPORT_API_KEY or a profile\n",
    );
  }
  const settings = await loadSettings(ctx, reportSettingFlags(flags));
  const days = chooseDayTarget(flags, ctx.cwd);
  if (days) return await (await import("./day-run")).runDayReport(ctx, flags, settings, days);
  const pageSize = settings["page-size"].value;
  const zone =
    settings.tz.value === undefined ? undefined : TimeZone.open(settings.tz.value, tzGiven(settings.tz.source));
  const plan = planRequest(flags, ctx.now(), pageSize, zone);
  const compare = flags.compare && {
    mode: flags.compare,
    period: planComparedPeriod(plan, flags.compare, flags.split),
  };
  const path = flags.output === undefined || isStdoutPath(flags.output) ? undefined : outputPath(flags.output, plan);
  await checkOutput(ctx, path);
  const format = chooseOutputFormat(flags, settings, path, ctx.io.outIsTTY);
  const shape = planShape(flags, plan, format.entry.name, keepCounters);
  checkPictureRequest(format.entry.name, plan);
  const apiKey = requireApiKey(settings);
  for (const warning of [...requestWarnings(flags, plan.request), ...format.warnings])
    ctx.io.err.write(`adreport: warning: ${warning}\n`);

  const recorder = flags.record === undefined ? undefined : openRecorder(ctx, flags.record, apiKey);
  const counts = { requests: 0, retries: 0 };
  const view = await progressView(ctx.io, { quiet: flags.quiet === true, verbose: flags.verbose === true });
  const api = reportApiFor(ctx, settings, apiKey, {
    onEvent: (event) => {
      countEvent(counts, event);
      view.onEvent(event);
    },
    recorder,
  });
  if (api.proxy && flags.verbose)
    ctx.io.err.write(`adreport: via the proxy ${api.proxy.shown} (from ${api.proxy.from})\n`);
  let progress: Progress | undefined;
  const limit = deadline(settings["max-time"].value, () => progressText(progress));
  const formatter = await format.entry.load();
  const interrupt = new AbortController();
  const giveUp = new AbortController();
  let sink: Sink | undefined;
  // Once the file is in place, a later failure (the --summary-file) must not say the old file was kept.
  let committed = false;
  let emptyWarning: string | undefined;
  let counted: ReturnType<typeof countingRows> | undefined;
  const stopListening = ctx.onSignal(() => {
    sink?.abortNow();
    interrupt.abort(
      new InterruptedError(
        path !== undefined && sink?.atomic !== false ? `interrupted; ${path} was left as it was` : "interrupted",
      ),
    );
  });
  try {
    sink = await openOutput(ctx, path, { beforeFirstWrite: () => view.stop(), signal: interrupt.signal });
    const paging = {
      pageSize,
      // --compare fetches two reports side by side: they share --concurrency (each holds half the pages).
      concurrency: compare ? Math.ceil(settings.concurrency.value / 2) : settings.concurrency.value,
      slots: compare ? new RequestSlots(settings.concurrency.value) : undefined,
      onProgress: (p: Progress) => {
        progress = p;
        view.onProgress(p);
      },
      // Also aborted when the export fails (an output that cannot be written): pages still in flight are
      // dropped, whether or not the formatter let go of the page iterator.
      signal: AbortSignal.any([interrupt.signal, giveUp.signal, ...(limit.signal ? [limit.signal] : [])]),
    };
    for (let attempt = 1; ; attempt += 1) {
      try {
        const opened = plan.windows
          ? await openSplitReport(api, plan.request, plan.windows, paging)
          : await openReport(api, plan.request, paging);
        const { report, warning } = watchAdInCampaign(opened, plan.request);
        const before = { ...paging, onProgress: () => {} };
        const { fill, ...stages } = shape;
        const shaped = await inZoneAndCompared(
          report,
          plan,
          compare,
          (request, windows) =>
            windows ? openSplitReport(api, request, windows, before) : openReport(api, request, before),
          fill ? (stream, range) => fillGaps(stream, { ...fill, fromSec: range.from, toSec: range.to }) : undefined,
        );
        counted = countingRows(transformReport(shaped, stages));
        await formatter.write(counted.report, sink.stream, {
          delimiter: settings.delimiter.value,
          bom: flags.bom === true,
          spreadsheet: format.spreadsheet,
          color: path === undefined && ctx.io.outColor,
          ...pictureOptions(ctx, plan, flags.compare),
        });
        emptyWarning = warning();
        break;
      } catch (error) {
        if (error instanceof DataChangedError && attempt === 1 && sink.canRestart()) {
          await sink.reset();
          continue;
        }
        if (error instanceof DataChangedError && !sink.canRestart()) {
          throw new DataChangedError(`${error.message}; rows already written to ${sink.description} are incomplete`, {
            hint: "discard that output and run again, or use --output FILE, which restarts once by itself",
          });
        }
        throw error;
      }
    }
    view.stop();
    await sink.commit();
    committed = true;
    if (emptyWarning !== undefined) ctx.io.err.write(`adreport: warning: ${emptyWarning}\n`);
    const rows = progress?.rows ?? 0;
    await writeSummary(ctx, flags, { outcome: "ok", from: plan.fromDate, to: plan.toDate, rows, ...counts }, undefined);
    const note = emptyNote(counted?.rows(), plan, compare ? compare.period : undefined, emptyWarning);
    if (note) ctx.io.err.write(`adreport: ${note}\n`);
    return { rows };
  } catch (error) {
    giveUp.abort();
    view.stop();
    const failed = outputError(error, sink);
    await sink?.abort();
    const reason: unknown = interrupt.signal.aborted
      ? interrupt.signal.reason
      : limit.signal?.aborted
        ? limit.signal.reason
        : failed instanceof OutputError && sink?.atomic && !committed
          ? new OutputError(`${failed.message}; the old file was left as it was`, { cause: failed.cause })
          : (failed ?? withCliHints(error));
    const summary = { outcome: "failed" as const, from: plan.fromDate, to: plan.toDate, rows: 0, ...counts };
    await writeSummary(ctx, flags, { ...summary, error: errorText(reason) }, undefined).catch(() => undefined);
    throw reason;
  } finally {
    limit.clear();
    stopListening();
    await api.close();
  }
}
