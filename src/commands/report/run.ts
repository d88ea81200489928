/** `adreport report`: settings, a checked request, every page through a formatter into the sink. */
import { openReport, openSplitReport, type Progress, ReportApi } from "../../api";
import { requireApiKey } from "../../config/resolve";
import { DataChangedError, InterruptedError, OutputError } from "../../core/errors";
import type { Sink } from "../../io/sink";
import type { Context } from "../context";
import { deadline } from "../shared/deadline";
import { withCliHints } from "../shared/hints";
import { checkOutput, isStdoutPath, openOutput, outputError } from "../shared/output";
import { loadSettings } from "../shared/settings";
import type { ReportFlags } from "./command";
import { chooseOutputFormat } from "./output-format";
import { progressView } from "./progress";
import { planRequest, type RequestPlan } from "./request";
import { chooseDayTarget } from "./target-choice";
import { requestWarnings, watchAdInCampaign } from "./warnings";

function outputPath(template: string, plan: RequestPlan): string {
  return template.replaceAll("{from}", plan.fromDate).replaceAll("{to}", plan.toDate);
}

/** How far an export got, for the message of --max-time. */
function progressText(progress: Progress | undefined): string {
  if (progress === undefined) return "the first page had not come";
  const n = (value: number) => value.toLocaleString("en-US");
  return `${n(progress.page)} of ${n(progress.pages)} pages, ${n(progress.rows)} of ${n(progress.total)} rows`;
}

export async function runReport(ctx: Context, flags: ReportFlags): Promise<void> {
  if (flags.apiKey !== undefined) {
    ctx.io.err.write(
      "adreport: warning: --api-key is visible to other users of this machine (ps); prefer ADREPORT_API_KEY or a profile\n",
    );
  }
  const settings = await loadSettings(ctx, {
    "base-url": flags.baseUrl,
    profile: flags.profile,
    format: flags.format,
    "page-size": flags.pageSize,
    concurrency: flags.concurrency,
    timeout: flags.timeout,
    retries: flags.retries,
    "max-time": flags.maxTime,
    delimiter: flags.delimiter,
    spreadsheet: flags.spreadsheet,
    "api-key": flags.apiKey,
  });
  const days = chooseDayTarget(flags, ctx.cwd);
  if (days) return (await import("./day-run")).runDayReport(ctx, flags, settings, days);
  const pageSize = settings["page-size"].value;
  const plan = planRequest(flags, ctx.now(), pageSize);
  const path = flags.output === undefined || isStdoutPath(flags.output) ? undefined : outputPath(flags.output, plan);
  await checkOutput(ctx, path);
  const format = chooseOutputFormat(flags, settings, path, ctx.io.outIsTTY);
  const apiKey = requireApiKey(settings);
  for (const warning of [...requestWarnings(flags, plan.request), ...format.warnings])
    ctx.io.err.write(`adreport: warning: ${warning}\n`);

  const view = await progressView(ctx.io, { quiet: flags.quiet === true, verbose: flags.verbose === true });
  const api = new ReportApi({
    baseUrl: settings["base-url"].value,
    apiKey,
    userAgent: `adreport/${ctx.version}`,
    timeoutMs: settings.timeout.value * 1000,
    retries: settings.retries.value,
    maxPageBytes: settings["max-page-mb"].value * 1024 * 1024,
    dispatcher: ctx.dispatcher,
    route: { setting: settings.proxy.value, env: ctx.env },
    onEvent: (event) => view.onEvent(event),
  });
  if (api.proxy && flags.verbose)
    ctx.io.err.write(`adreport: via the proxy ${api.proxy.shown} (from ${api.proxy.from})\n`);
  let progress: Progress | undefined;
  const limit = deadline(settings["max-time"].value, () => progressText(progress));
  const formatter = await format.entry.load();
  const interrupt = new AbortController();
  const giveUp = new AbortController();
  let sink: Sink | undefined;
  let emptyWarning: string | undefined;
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
      concurrency: settings.concurrency.value,
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
        await formatter.write(report, sink.stream, {
          delimiter: settings.delimiter.value,
          bom: flags.bom === true,
          spreadsheet: format.spreadsheet,
          color: path === undefined && ctx.io.outColor,
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
    if (emptyWarning !== undefined) ctx.io.err.write(`adreport: warning: ${emptyWarning}\n`);
  } catch (error) {
    giveUp.abort();
    view.stop();
    const failed = outputError(error, sink);
    await sink?.abort();
    if (interrupt.signal.aborted) throw interrupt.signal.reason;
    if (limit.signal?.aborted) throw limit.signal.reason;
    if (failed instanceof OutputError && sink?.atomic) {
      throw new OutputError(`${failed.message}; the old file was left as it was`, { cause: failed.cause });
    }
    throw failed ?? withCliHints(error);
  } finally {
    limit.clear();
    stopListening();
    await api.close();
  }
}
