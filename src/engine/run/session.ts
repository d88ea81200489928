/**
 * The lifecycle of fetching a report, the same for an export and for a run of whole days: the progress
 * display, the API client (closed at the end, whatever happened), --max-time, SIGINT/SIGTERM, one restart
 * after the service said its data changed, and which reason a failed run gives (Ctrl-C, then --max-time,
 * then what failed).
 */
import type { Progress, Recorder, ReportApi } from "../../api";
import { DataChangedError, InterruptedError } from "../../core/errors";
import type { EngineContext } from "../context";
import type { EngineEvents, ProgressSink } from "../events";
import type { ReportPlan } from "../plan/plan";
import { deadline } from "./deadline";
import { pacerFor } from "./pacer";
import { reportApiFor } from "./report-api";
import { countEvent, type RunSummary } from "./summary";

export interface SessionOptions {
  readonly ctx: EngineContext;
  readonly events: EngineEvents;
  readonly plan: ReportPlan;
  readonly recorder?: Recorder | undefined;
  /** Counted into: every request and retry. */
  readonly counts: Pick<RunSummary, "requests" | "retries" | "throttled">;
  /** How far the run got, for the message of --max-time. */
  howFar(progress: Progress | undefined): string;
  /** The message of a run stopped by SIGINT/SIGTERM. */
  interrupted(): string;
  /** Stops writing at once: on a signal, and with `abortOnDeadline` when --max-time passes. */
  abortNow(): void;
  readonly abortOnDeadline?: boolean;
  /** The error a failed run ends with; `stopped` is Ctrl-C's or --max-time's, when one stopped it. */
  onFailure?(error: unknown, stopped: unknown): Promise<unknown>;
}

export interface Session {
  readonly api: ReportApi;
  readonly view: ProgressSink;
  /** Aborted by Ctrl-C, --max-time, or the run failing (pages in flight are dropped). */
  readonly signal: AbortSignal;
  /** Aborted by Ctrl-C only (a wait for a named pipe's reader). */
  readonly interrupt: AbortSignal;
  onProgress(progress: Progress): void;
  progress(): Progress | undefined;
  /** Runs `once`, and once more after DataChangedError when the output can start again. */
  withRestart<T>(
    once: () => Promise<T>,
    output: {
      canRestart(): boolean;
      restart(): Promise<void>;
      cannotRestart?(error: DataChangedError): Error;
    },
  ): Promise<T>;
}

export async function withSession<T>(options: SessionOptions, work: (session: Session) => Promise<T>): Promise<T> {
  const { ctx, events, plan } = options;
  const view = await events.progress({ quiet: plan.quiet, verbose: plan.verbose });
  const api = reportApiFor(ctx, plan.settings, plan.apiKey, {
    onEvent: (event) => {
      countEvent(options.counts, event);
      view.onEvent(event);
    },
    onBytes: (count) => view.onBytes?.(count),
    recorder: options.recorder,
    pacer: pacerFor(plan, (text) => events.note(text)),
    // The pacer's clock is the real one: a Retry-After past this ends the run at once (QuotaError).
    deadline: plan.maxTime === undefined ? undefined : Date.now() + plan.maxTime * 1000,
  });
  if (api.proxy && plan.verbose) events.note(`via the proxy ${api.proxy.shown} (from ${api.proxy.from})`);
  let progress: Progress | undefined;
  const limit = deadline(plan.maxTime, () => options.howFar(progress));
  const interrupt = new AbortController();
  const giveUp = new AbortController();
  const stopListening = ctx.onSignal(() => {
    options.abortNow();
    interrupt.abort(new InterruptedError(options.interrupted()));
  });
  // --max-time also ends a database statement kept waiting by another session's locks.
  if (options.abortOnDeadline) limit.signal?.addEventListener("abort", () => options.abortNow(), { once: true });
  const stopped = () =>
    interrupt.signal.aborted ? interrupt.signal.reason : limit.signal?.aborted ? limit.signal.reason : undefined;
  const session: Session = {
    api,
    view,
    signal: AbortSignal.any([interrupt.signal, giveUp.signal, ...(limit.signal ? [limit.signal] : [])]),
    interrupt: interrupt.signal,
    onProgress(p) {
      progress = p;
      view.onProgress(p);
    },
    progress: () => progress,
    async withRestart(once, output) {
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await once();
        } catch (error) {
          if (!(error instanceof DataChangedError)) throw error;
          if (!output.canRestart()) throw output.cannotRestart?.(error) ?? error;
          if (attempt > 1) throw error;
          events.restarted?.();
          await output.restart();
        }
      }
    },
  };
  try {
    return await work(session);
  } catch (error) {
    giveUp.abort();
    view.stop();
    const reason = stopped();
    throw options.onFailure ? await options.onFailure(error, reason) : (reason ?? error);
  } finally {
    limit.clear();
    stopListening();
    await api.close();
  }
}

/** The --summary of a failed run; a failure to write it does not hide why the run failed. */
export async function reportFailure(events: EngineEvents, summary: object): Promise<void> {
  await events.summary(summary).catch(() => undefined);
}
