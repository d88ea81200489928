/**
 * One report over several accounts, several at once: each account's own plan run by the normal export
 * (run/run.ts). With a file per account each writes its own; otherwise every account's export is spooled to a
 * temporary file and the spools are written, in account order, into the one output (engine/accounts/merged-output.ts).
 * One account failing does not stop the others; a signal or a failed output stops them all. An account
 * another host of a fleet has (engine/days/job-taken.ts) is passed over, and tried once more at the end:
 * a host killed while it had it lets go of it, and the account is done in this round all the same.
 */
import { InterruptedError, OutputError } from "../../core/errors";
import { runPool } from "../../core/pool";
import type { FormatOptions } from "../../format/formatter";
import type { Sink } from "../../io/sink";
import type { EngineContext } from "../context";
import type { EngineEvents } from "../events";
import type { OutputFormat } from "../plan/output-format";
import { openOutput, outputError } from "../run/output";
import { type AccountFeed, type TextShaping, writeMerged } from "./merged-output";
import { type SpoolFolder, spoolFolder } from "./spool";

/** Where SIGINT/SIGTERM and a failed output reach every account's export at once. */
class Stopper {
  private readonly handlers = new Set<(signal: NodeJS.Signals) => void>();
  stopped = false;

  onSignal = (handler: (signal: NodeJS.Signals) => void): (() => void) => {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  };

  stop(signal: NodeJS.Signals): void {
    this.stopped = true;
    for (const handler of [...this.handlers]) handler(signal);
  }
}

/** A promise settled from outside (Promise.withResolvers, which Node 20 lacks). */
function settleLater<T>(): { promise: Promise<T>; resolve(value: T): void } {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

export interface FanOutPlan {
  readonly names: readonly string[];
  /** Each account writes its own output (a file each, or its rows of a shared table). */
  readonly perProfile: boolean;
  /** The one output of every account (undefined: stdout); unused when perProfile. */
  readonly path: string | undefined;
  readonly concurrency: number;
  readonly format: OutputFormat;
  readonly options: FormatOptions;
  readonly shaping: TextShaping;
  readonly allowPartial: boolean;
}

/**
 * Runs account `index`: into its own output, or into `spoolFile` (JSON) for the shared one. Resolves true
 * when it succeeded, `taken` when another run has it; `onSignal` is where the run's stop reaches it.
 * `again`: the end's second try of an account that was taken.
 */
export type AccountRun = (
  index: number,
  spoolFile: string | undefined,
  onSignal: EngineContext["onSignal"],
  again: boolean,
) => Promise<boolean | "taken">;

export async function fanOut(ctx: EngineContext, plan: FanOutPlan, events: EngineEvents, run: AccountRun) {
  const stopper = new Stopper();
  const ok: boolean[] = [];
  let interrupted = false;
  let sink: Sink | undefined;
  let spool: SpoolFolder | undefined;
  const waitForReader = new AbortController();
  const stopListening = ctx.onSignal((signal) => {
    interrupted = true;
    waitForReader.abort(new InterruptedError("interrupted"));
    sink?.abortNow();
    stopper.stop(signal);
  });
  const { names } = plan;
  try {
    if (plan.perProfile) {
      const taken: number[] = [];
      await runPool(
        names.length,
        plan.concurrency,
        async (index) => {
          const result = await run(index, undefined, stopper.onSignal, false);
          if (result === "taken") taken.push(index);
          ok[index] = result === true;
        },
        () => stopper.stopped,
      );
      // One more pass over the accounts that were taken, in their order: one whose host finished is found
      // done; one whose host died is free again, and continues from its last committed window.
      taken.sort((a, b) => a - b);
      await runPool(
        taken.length,
        plan.concurrency,
        async (at) => {
          const index = taken[at] as number;
          ok[index] = (await run(index, undefined, stopper.onSignal, true)) === true;
        },
        () => stopper.stopped,
      );
    } else {
      spool = await spoolFolder(ctx.env, ctx.cwd);
      const folder = spool;
      const ends = names.map(() => settleLater<string | undefined>());
      const feeds: AccountFeed[] = names.map((profile, index) => ({
        profile,
        spooled: (ends[index] as ReturnType<typeof settleLater<string | undefined>>).promise,
      }));
      const out = await openOutput(ctx, plan.path, { signal: waitForReader.signal });
      sink = out;
      let mergeFailure: unknown;
      const merged = writeMerged(feeds, plan.format.entry, out.stream, plan.options, plan.shaping).catch(
        (error: unknown) => {
          mergeFailure = error;
          stopper.stop("SIGTERM");
        },
      );
      await runPool(
        names.length,
        plan.concurrency,
        async (index) => {
          const file = folder.fileFor(index);
          ok[index] = (await run(index, file, stopper.onSignal, false)) === true;
          ends[index]?.resolve(ok[index] ? file : undefined);
        },
        () => stopper.stopped,
      );
      for (const end of ends) end.resolve(undefined); // accounts never started (the run was stopped)
      await merged;
      if (!interrupted && mergeFailure !== undefined) {
        const failed = outputError(mergeFailure, out);
        await out.abort();
        if (failed instanceof OutputError && out.atomic) {
          throw new OutputError(`${failed.message}; the old file was left as it was`, { cause: failed.cause });
        }
        throw failed ?? mergeFailure;
      }
      if (!interrupted)
        await finishOutput(out, events, names.length, ok.filter((done) => done).length, plan.allowPartial);
    }
    if (interrupted) {
      await sink?.abort();
      throw new InterruptedError(
        plan.path !== undefined && !plan.perProfile && sink?.atomic !== false
          ? `interrupted; ${plan.path} was left as it was`
          : "interrupted",
      );
    }
  } finally {
    stopListening();
    await spool?.remove();
  }
}

/**
 * Puts the shared output in place: a file only when every account succeeded, or with --allow-partial when
 * at least one did; otherwise the old file (or none) stays. Standard output, a device or a named pipe has
 * had each account's rows as they came.
 */
async function finishOutput(
  sink: Sink,
  events: EngineEvents,
  accounts: number,
  succeeded: number,
  allowPartial: boolean,
) {
  const complete = succeeded === accounts;
  if (sink.atomic && (succeeded === 0 || (!complete && !allowPartial))) {
    await sink.abort();
    if (succeeded > 0) {
      events.note(
        `${sink.description} was not written: some accounts failed\nhint: --allow-partial writes it with the accounts that succeeded`,
      );
    }
    return;
  }
  try {
    await sink.commit();
  } catch (error) {
    const failed = outputError(error, sink);
    throw failed instanceof OutputError && sink.atomic
      ? new OutputError(`${failed.message}; the old file was left as it was`, { cause: failed.cause })
      : (failed ?? error);
  }
}
