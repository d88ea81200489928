/**
 * An incremental job for one run: its identity and id, its lock (held for the whole run; a second run of
 * the same job refuses at once, naming the pid of the first), its state (read at the start, replaced each
 * time a window's days are in place: a checkpoint) and the record of how the run ended.
 */
import { createHash } from "node:crypto";
import type { ResolvedSettings } from "../../config/resolve";
import type { ReportRequest } from "../../contract";
import { BusyError, JobTakenError } from "../../core/busy-error";
import { bucketUnitOf, dayOfInstant, dayText } from "../../core/calendar";
import type { AutoLookbackState } from "../../state/auto-lookback";
import type { DayRecord } from "../../state/day-record";
import { identityDifferences, type JobIdentity } from "../../state/job";
import { holderText, thisProcess } from "../../state/job-lock";
import type { JobStore } from "../../state/job-store";
import type { DayFileWrite, JobState, LastRun, StatePaths } from "../../state/store";
import { kindOf, targetText } from "../../targets/registry";
import type { EngineContext } from "../context";
import { type IncrementalRange, incrementalRange } from "../plan/incremental";
import type { DayTargetSpec } from "../plan/output-spec";
import type { IncrementalPlan } from "../plan/plan";
import { earlierJobId, jobId } from "./job-id";
import { findJobState, jobStatePaths, refuseOtherOwner } from "./job-state";
import { jobStoreFor, rememberStore } from "./job-stores";
import { doneElsewhere, doneInRound } from "./job-taken";
import { isRestated, nextRunRecord } from "./run-record";

export interface AutoLedger {
  auto: AutoLookbackState;
  checks: ReadonlyMap<string, Record<string, string>>;
  /** The days before the new ones this run fetches again: their checks are kept only once they are written. */
  refetching: ReadonlySet<string>;
}

export interface IncrementalJob {
  readonly id: string;
  range(granularity: string): IncrementalRange;
  recordOf(day: string): DayRecord | undefined;
  /**
   * Records days put in place. `lastDay`: every day up to it is now exported (a checkpoint); days the state
   * records after it are forgotten. Without it (a repair of days in the middle) the last day stays.
   */
  recordDays(records: ReadonlyMap<string, DayRecord>, lastDay: string | undefined): Promise<void>;
  /** The state as read at the start or last written (undefined before the job's first run). */
  state(): JobState | undefined;
  /**
   * --lookback auto: its part of the state after this run, and the check digests of days it did not write,
   * as far as they are known when the state is written (each recordDays, and recordAuto at the end).
   */
  withAuto(ledger: () => AutoLedger | undefined): void;
  /** Writes the auto ledger once more when the last recordDays did not hold it as it is now. */
  recordAuto(): Promise<void>;
  /** Records how the run ended, with the days it found restated and its shape's changes (run-record.ts). */
  finished(run: Omit<LastRun, "at">): Promise<void>;
  release(): Promise<void>;
}

/** `baseUrl`: the job's own, when its days are fetched from another service (`verify --repair --base-url`). */
export function jobIdentity(
  settings: ResolvedSettings,
  request: ReportRequest,
  choice: DayTargetSpec,
  baseUrl: string = settings["base-url"].value,
): JobIdentity {
  const granularity = (request.granularity ?? "day").toLowerCase();
  return {
    profile: settings.profile.value ?? null,
    baseUrl,
    dimensions: [...request.dimensions],
    metrics: [...request.metrics],
    granularity: bucketUnitOf(granularity) ?? granularity,
    campaignId: request.campaignId ?? null,
    adId: request.adId ?? null,
    target: choice.target,
  };
}

export async function openIncrementalJob(
  ctx: EngineContext,
  plan: {
    settings: ResolvedSettings;
    now: Date;
    output: DayTargetSpec;
    incremental: IncrementalPlan;
    write: DayFileWrite | undefined;
    /** The job's base URL when the requests go to another (verify-time repair): its identity keeps its own. */
    jobBaseUrl?: string | undefined;
  },
  request: ReportRequest,
  notes: { note(text: string): void },
): Promise<IncrementalJob> {
  const { settings, incremental, output: choice } = plan;
  const { lookbackDays } = incremental;
  const identity = jobIdentity(settings, request, choice, plan.jobBaseUrl);
  const id = jobId(identity);
  const earlier = earlierJobId(identity);
  const store = jobStoreOf(ctx, plan, incremental);
  const paths = jobStatePaths(ctx.cwd, incremental, id, store);
  let release = async () => {
    await store.close();
  };
  let state: JobState | undefined;
  try {
    await store.read(paths, ctx.user); // a state adreport cannot use is refused before its lock is made
    const lock = await store.lock(paths);
    if (!lock.ok) {
      throw new JobTakenError(
        `another run of this job (${id}) is under way: pid ${lock.holder} holds ${lock.path}`,
        "held",
        lock.holder,
        {
          hint:
            lock.hint ??
            "this run did nothing; if that process is not adreport (or, on another host, no longer runs), remove the lock file",
        },
      );
    }
    release = async () => {
      await lock.release();
      await store.close();
    };
    if (kindOf(choice.target).writers === "one") release = await lockOutput(store, paths, choice, release);
    const found = await findJobState(ctx.cwd, incremental, ctx.user, { id, earlier }, store);
    state = found.state;
    if (state === undefined)
      await refuseOtherOwner(incremental.stateFolder, ctx.user, { identity, id, earlier, incremental: true }, store);
    if (found.from !== undefined) {
      // Taken over: the state and its last run move to this id's files.
      await store.move(found.from, paths);
      notes.note(`job ${earlier} is now job ${id}: a database job's metrics may grow, its id leaves them out`);
    }
    await store.settle?.(paths, ctx.user, (text) => notes.note(text));
    if (ctx.round !== undefined && kindOf(choice.target).fleet === true)
      await refuseDoneInRound(store, paths, id, ctx.round, incremental.lookbackDays);
    if (store.name === "database") await rememberStore(incremental.stateFolder, choice.target);
  } catch (error) {
    await release();
    throw error;
  }
  // The state as this run found it: what --lookback auto compares with and learns from.
  const readState = state;
  let autoLedger: (() => AutoLedger | undefined) | undefined;
  /** The days this run has written (and recorded). */
  const written = new Set<string>();
  /** The state with the auto ledger as it is now; `state` becomes it. */
  const withAutoLedger = (current: JobState): JobState => {
    const ledger = autoLedger?.();
    if (ledger === undefined) return current;
    const days = { ...current.days };
    for (const [day, digests] of ledger.checks) {
      const record = days[day];
      // A day that moved keeps its old check until its new rows are written: a run that ends before them
      // (killed, failed) leaves it moved for the next run, not checked with the rows it never wrote.
      if (ledger.refetching.has(day) && !written.has(day)) continue;
      if (record) days[day] = { ...record, checks: { ...record.checks, ...digests } };
    }
    state = { ...current, days, autoLookback: ledger.auto };
    return state;
  };
  // A database job's metrics may grow under one id: what its shape was before this run is said in its run record.
  const schemaChanges = state === undefined ? [] : identityDifferences(state.job, identity);
  const restated = new Set<string>();
  return {
    id,
    range: (granularity) =>
      incrementalRange({
        now: plan.now,
        lastDay: state?.lastDay,
        lookbackDays,
        start: incremental.start,
        granularity,
        job: id,
      }),
    recordOf: (day) => state?.days[day],
    async recordDays(records, checkpoint) {
      // A checkpoint moves the last day on, never back: a run with a long lookback stopped after its first
      // window leaves the days after it exported. A last day after yesterday (a clock that ran ahead) is
      // forgotten, with the records of the days after it. Every other day stays in the ledger for good.
      const previous = state?.lastDay;
      const trusted = previous !== undefined && previous <= dayText(dayOfInstant(plan.now) - 1) ? previous : undefined;
      const lastDay =
        checkpoint === undefined ? previous : trusted !== undefined && trusted > checkpoint ? trusted : checkpoint;
      if (lastDay === undefined) throw new Error("a repair of a job that has no state");
      const days: Record<string, DayRecord> = {};
      for (const [day, record] of records) {
        written.add(day);
        const before = state?.days[day];
        if (before !== undefined && isRestated(before, record)) restated.add(day);
      }
      for (const [day, record] of [...Object.entries(state?.days ?? {}), ...records]) {
        if (day <= lastDay) days[day] = record;
      }
      const sorted = Object.fromEntries(Object.entries(days).sort(([a], [b]) => (a < b ? -1 : 1)));
      state = {
        version: 1,
        id,
        job: identity,
        lastDay,
        days: sorted,
        ...(plan.write ? { write: plan.write } : {}),
        ...(state?.autoLookback ? { autoLookback: state.autoLookback } : {}),
      };
      await store.write(paths, withAutoLedger(state));
    },
    state: () => readState,
    withAuto(ledger) {
      autoLedger = ledger;
    },
    async recordAuto() {
      if (state === undefined || autoLedger === undefined) return;
      const written = JSON.stringify(state);
      const next = withAutoLedger(state);
      if (JSON.stringify(next) !== written) await store.write(paths, next);
    },
    async finished(run) {
      const previous = await store.readLastRun(paths).catch(() => undefined);
      const facts = { restated: [...restated].sort(), schemaChanges, lookbackDays };
      const by = ctx.round === undefined ? {} : { by: holderText(thisProcess()) };
      const record = { at: ctx.now().toISOString(), ...run, ...by, ...facts };
      await store.writeLastRun(paths, nextRunRecord(previous, record));
    },
    release,
  };
}

/**
 * A fleet's account another host has already exported in this round (its last run began since the round
 * did and ended well): taken, so that each host does not export every account the others did.
 */
async function refuseDoneInRound(
  store: JobStore,
  paths: StatePaths,
  id: string,
  round: { since: Date },
  lookbackDays: number,
) {
  const last = await store.readLastRun(paths);
  const by = doneInRound(last, round, lookbackDays);
  if (by !== undefined && last !== undefined) throw doneElsewhere(id, by, last);
}

/** The job's store (engine/days/job-stores.ts): its database, a folder beside its files, or the config folder's. */
function jobStoreOf(
  ctx: EngineContext,
  plan: { settings: ResolvedSettings; output: DayTargetSpec },
  incremental: IncrementalPlan,
): JobStore {
  return jobStoreFor({
    target: plan.output.target,
    stateFile: incremental.stateFile,
    cwd: ctx.cwd,
    sqliteAddon: ctx.sqliteAddon(),
    connectTimeoutMs: plan.settings.timeout.value * 1000,
    connect: plan.output.given,
  });
}

/**
 * Two jobs (other metrics, another profile) writing one target that only one may write at once (a `{date}`
 * template) would put their days in the same files at once: a lock per target, beside the job's own, held
 * as long. Returns what releases both.
 */
async function lockOutput(
  store: JobStore,
  paths: StatePaths,
  choice: DayTargetSpec,
  releaseJob: () => Promise<void>,
): Promise<() => Promise<void>> {
  const text = targetText(choice.target);
  const name = createHash("sha256").update(text).digest("hex").slice(0, 8);
  const lock = await store.lock(paths, `output-${name}`);
  if (!lock.ok) {
    throw new BusyError(`another run is writing ${text}: pid ${lock.holder} holds ${lock.path}`, {
      hint: "this run did nothing; two jobs writing one {date} template take turns (give each job its own -o)",
    });
  }
  return async () => {
    await lock.release();
    await releaseJob();
  };
}
