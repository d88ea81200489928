/**
 * `adreport report --profiles a,b` / `--all-profiles`: the same report for each account, each through the
 * normal single-account export (run.ts) with its own key and settings, several at once. With `{profile}` in
 * --output each account writes its own file; otherwise every account's export is spooled to a temporary
 * file and the spools are written, in profile order, into the one output (merged-output.ts). One account
 * failing does not stop the others; the run ends with a table on stderr and the exit status of
 * account-outcome.ts.
 */
import { join } from "node:path";
import { InterruptedError, OutputError } from "../../core/errors";
import type { Sink } from "../../io/sink";
import type { Context } from "../context";
import { type AccountResult, failedAccount, okAccount, runVerdict } from "../shared/account-outcome";
import { openOutput, outputError } from "../shared/output";
import { runPool } from "../shared/pool";
import { accountStreams } from "./account-io";
import { fieldsOverAccounts, planAccounts, recordingErr } from "./account-plan";
import { accountTable } from "./account-table";
import type { ReportFlags } from "./command";
import { type AccountFeed, type TextShaping, writeMerged } from "./merged-output";
import { pictureOptions } from "./picture-options";
import { runReport } from "./run";
import { writeSummaryObject } from "./run-summary";
import { type SpoolFolder, spoolFolder } from "./spool";

const DEFAULT_ACCOUNT_CONCURRENCY = 2;

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

interface Later<T> {
  promise: Promise<T>;
  resolve(value: T): void;
}

/** A promise settled from outside (Promise.withResolvers, which Node 20 lacks). */
function settleLater<T>(): Later<T> {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

/**
 * `onResults` receives every account's outcome once all have ended (before the table and the exit status),
 * for a machine-readable summary.
 */
export async function runAccounts(
  ctx: Context,
  flags: ReportFlags,
  onResults?: (results: readonly AccountResult[]) => void,
): Promise<void> {
  const printed = new Set<string>();
  const plan = await planAccounts(recordingErr(ctx, printed), flags);
  const stopper = new Stopper();
  const results: AccountResult[] = [];
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
  try {
    // The one table of every account sums their counters: a ratio in its totals row is computed from them.
    const keepCounters = !plan.perProfile && ["table", "html", "chart"].includes(plan.format.entry.name);
    const fields = fieldsOverAccounts(flags.fields);
    const runAccount = async (index: number, output: string, extra: Partial<ReportFlags>): Promise<boolean> => {
      const profile = plan.names[index] as string;
      const accountCtx: Context = {
        ...ctx,
        env: plan.envFor(profile),
        io: accountStreams(ctx.io, profile, printed),
        onSignal: stopper.onSignal,
      };
      const started = performance.now();
      try {
        const done = await runReport(
          accountCtx,
          {
            ...flags,
            profiles: undefined,
            allProfiles: undefined,
            accountConcurrency: undefined,
            allowPartial: undefined,
            summary: undefined,
            summaryFile: undefined,
            profile,
            output,
            fields: fields.account,
            quiet: true,
            record: flags.record === undefined ? undefined : join(flags.record, profile),
            ...extra,
          },
          { keepCounters },
        );
        results[index] = okAccount(profile, done.rows, performance.now() - started);
        return true;
      } catch (error) {
        results[index] = failedAccount(profile, error, performance.now() - started);
        return false;
      }
    };
    const concurrency = plan.oneAtATime ? 1 : (flags.accountConcurrency ?? DEFAULT_ACCOUNT_CONCURRENCY);
    const { path } = plan;
    if (plan.perProfile && path !== undefined) {
      await runPool(
        plan.names.length,
        concurrency,
        async (index) => {
          await runAccount(index, path.replaceAll("{profile}", plan.names[index] as string), {});
        },
        () => stopper.stopped,
      );
    } else {
      spool = await spoolFolder(ctx.env, ctx.cwd);
      const folder = spool;
      const ends = plan.names.map(() => settleLater<string | undefined>());
      const feeds: AccountFeed[] = plan.names.map((profile, index) => ({
        profile,
        spooled: (ends[index] as Later<string | undefined>).promise,
      }));
      sink = await openOutput(ctx, path, { signal: waitForReader.signal });
      let mergeFailure: unknown;
      const shaping: TextShaping = { fields: fields.shared, epochDates: flags.dateFormat === "epoch" };
      const merged = writeMerged(
        feeds,
        plan.format.entry,
        sink.stream,
        {
          delimiter: plan.delimiter,
          bom: flags.bom === true,
          spreadsheet: plan.format.spreadsheet,
          color: path === undefined && ctx.io.outColor,
          ...pictureOptions(ctx, plan.request, flags.compare),
        },
        shaping,
      ).catch((error: unknown) => {
        mergeFailure = error;
        stopper.stop("SIGTERM");
      });
      await runPool(
        plan.names.length,
        concurrency,
        async (index) => {
          const file = folder.fileFor(index);
          const ok = await runAccount(index, file, {
            format: "json",
            bom: undefined,
            delimiter: undefined,
            spreadsheet: undefined,
          });
          ends[index]?.resolve(ok ? file : undefined);
        },
        () => stopper.stopped,
      );
      for (const end of ends) end.resolve(undefined); // accounts never started (the run was stopped)
      await merged;
      if (!interrupted && mergeFailure !== undefined) {
        const failed = outputError(mergeFailure, sink);
        await sink.abort();
        if (failed instanceof OutputError && sink.atomic) {
          throw new OutputError(`${failed.message}; the old file was left as it was`, { cause: failed.cause });
        }
        throw failed ?? mergeFailure;
      }
      if (!interrupted) await finishOutput(ctx, sink, results, flags.allowPartial === true);
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
  onResults?.(results);
  const failed = results.some((r) => r.outcome !== "ok");
  if (failed || flags.quiet !== true) ctx.io.err.write(accountTable(results));
  const verdict = runVerdict(results);
  const summary = writeSummaryObject(ctx, flags, {
    outcome: verdict === undefined ? "ok" : results.some((r) => r.outcome === "ok") ? "partial" : "failed",
    accounts: results.map(({ profile, outcome, rows, ms, error }) => ({
      profile,
      outcome,
      rows,
      ms: Math.round(ms),
      ...(error === undefined ? {} : { error }),
    })),
  });
  await summary.catch((error: unknown) => {
    throw outputError(error, undefined) ?? error;
  });
  if (verdict) throw verdict;
}

/**
 * Puts the shared output in place: a file only when every account succeeded, or with --allow-partial when
 * at least one did; otherwise the old file (or none) stays. Standard output, a device or a named pipe has
 * had each account's rows as they came.
 */
async function finishOutput(
  ctx: Context,
  sink: Sink,
  results: readonly AccountResult[],
  allowPartial: boolean,
): Promise<void> {
  const succeeded = results.filter((r) => r.outcome === "ok").length;
  const complete = succeeded === results.length;
  if (sink.atomic && (succeeded === 0 || (!complete && !allowPartial))) {
    await sink.abort();
    if (succeeded > 0) {
      ctx.io.err.write(
        `adreport: ${sink.description} was not written: some accounts failed\nhint: --allow-partial writes it with the accounts that succeeded\n`,
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
