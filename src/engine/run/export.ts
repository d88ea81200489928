/** An export into stdout or one file: every page through the plan's stages and formatter into the sink. */
import { openWindows, type Progress, RequestSlots } from "../../api";
import { keyOwner } from "../../config/resolve";
import { DataChangedError, OutputError } from "../../core/errors";
import type { Sink } from "../../io/sink";
import { fillGaps } from "../../transform/fill";
import { transformReport } from "../../transform/pipeline";
import type { EngineContext } from "../context";
import type { EngineEvents } from "../events";
import type { ExportPlan } from "../plan/plan";
import { watchAdInCampaign } from "../plan/warnings";
import { comparedCoverage } from "./compared-coverage";
import { countingRows, emptyNote } from "./empty-note";
import { withCliHints } from "./hints";
import { openOutput, outputError } from "./output";
import { openRecorder } from "./record";
import { reportFailure, withSession } from "./session";
import { type RunSummary, summaryObject } from "./summary";
import { inZoneAndCompared } from "./time-stages";

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** How far an export got, for the message of --max-time. */
function progressText(progress: Progress | undefined): string {
  if (progress === undefined) return "the first page had not come";
  const n = (value: number) => value.toLocaleString("en-US");
  return `${n(progress.page)} of ${n(progress.pages)} pages, ${n(progress.rows)} of ${n(progress.total)} rows`;
}

/** What one export did, for a run over several accounts. */
export interface ReportDone {
  /** Rows received from the service. */
  rows: number;
}

export async function runExport(ctx: EngineContext, plan: ExportPlan, events: EngineEvents): Promise<ReportDone> {
  const { request, compare, path } = plan;
  const recorder = plan.record === undefined ? undefined : openRecorder(ctx, plan.record, plan.apiKey);
  const counts = { requests: 0, retries: 0, throttled: 0 };
  const summary = (outcome: RunSummary["outcome"], rows: number): RunSummary => ({
    outcome,
    from: request.fromDate,
    to: request.toDate,
    rows,
    ...counts,
  });
  const formatter = await plan.write.format.entry.load();
  let sink: Sink | undefined;
  // Once the file is in place, a later failure (the --summary-file) must not say the old file was kept.
  let committed = false;
  return withSession(
    {
      ctx,
      events,
      plan,
      recorder,
      counts,
      howFar: progressText,
      interrupted: () =>
        path !== undefined && sink?.atomic !== false ? `interrupted; ${path} was left as it was` : "interrupted",
      abortNow: () => sink?.abortNow(),
      async onFailure(error, stopped) {
        const failed = outputError(error, sink);
        await sink?.abort();
        const reason: unknown =
          stopped ??
          (failed instanceof OutputError && sink?.atomic && !committed
            ? new OutputError(`${failed.message}; the old file was left as it was`, { cause: failed.cause })
            : (failed ?? withCliHints(error, keyOwner(plan.settings))));
        await reportFailure(events, summaryObject({ ...summary("failed", 0), error: errorText(reason) }, undefined));
        return reason;
      },
    },
    async (session) => {
      const { api, view } = session;
      const out = await openOutput(ctx, path, { beforeFirstWrite: () => view.stop(), signal: session.interrupt });
      sink = out;
      const concurrency = plan.paging.concurrency;
      const paging = {
        pageSize: plan.paging.pageSize,
        // --compare fetches two reports side by side: they share --concurrency (each holds half the pages).
        concurrency: compare ? Math.ceil(concurrency / 2) : concurrency,
        slots: compare ? new RequestSlots(concurrency) : undefined,
        onProgress: session.onProgress,
        // Also aborted when the export fails (an output that cannot be written): pages still in flight are
        // dropped, whether or not the formatter let go of the page iterator.
        signal: session.signal,
      };
      const { counted, emptyWarning, coverage } = await session.withRestart(
        async () => {
          const coverage = comparedCoverage();
          const opened = await openWindows(api, request.request, request.windows, paging);
          const { report, warning } = watchAdInCampaign(opened, request.request);
          const before = { ...paging, onProgress: () => {} };
          const { fill, ...stages } = plan.shape;
          const shaped = await inZoneAndCompared(
            report,
            request,
            compare,
            async (asked, windows) => coverage.watch(await openWindows(api, asked, windows, before)),
            fill ? (stream, range) => fillGaps(stream, { ...fill, fromSec: range.from, toSec: range.to }) : undefined,
          );
          const rows = countingRows(transformReport(shaped, stages));
          await formatter.write(rows.report, out.stream, plan.write.options);
          return { counted: rows, emptyWarning: warning(), coverage };
        },
        {
          canRestart: () => out.canRestart(),
          restart: () => out.reset(),
          cannotRestart: (error) =>
            new DataChangedError(`${error.message}; rows already written to ${out.description} are incomplete`, {
              hint: "discard that output and run again, or use --output FILE, which restarts once by itself",
            }),
        },
      );
      view.stop();
      await out.commit();
      committed = true;
      if (emptyWarning !== undefined) events.warning(emptyWarning);
      const rows = session.progress()?.rows ?? 0;
      await events.summary(summaryObject(summary("ok", rows), undefined));
      const note = emptyNote(counted.rows(), request, compare ? compare.period : undefined, emptyWarning);
      if (note) events.note(note);
      const before = compare && counted.rows() > 0 ? coverage.note(request, compare.period) : "";
      if (before) events.note(before);
      if (path !== undefined) events.wrote?.(path, counted.rows());
      return { rows };
    },
  );
}
