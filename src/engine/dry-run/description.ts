/**
 * A plan in words, for `report --dry-run`: what a run of it would fetch (its range and 90-day windows),
 * where it would write, as which job, and for --incremental what the job's state makes of the range. It
 * reads the job's state and nothing else: no request, no lock, no file, folder or table is made.
 */
import { existsSync } from "node:fs";
import { ceilSeconds, type Instant, parseInstant } from "../../contract";
import { formatDateTime } from "../../core/calendar";
import { TimeZone } from "../../core/time-zone";
import { kindOf } from "../../targets/registry";
import { planAuto, settledThrough } from "../days/auto-plan";
import { jobIdentity } from "../days/incremental-job";
import { earlierJobId, jobId } from "../days/job-id";
import { findJobState, refuseOtherOwner } from "../days/job-state";
import { jobStoreFor } from "../days/job-stores";
import { incrementalRange } from "../plan/incremental";
import type { FolderProblem } from "../plan/output-folder";
import type { DayPlan, IncrementalPlan, ReportPlan } from "../plan/plan";
import { planRequest, type RequestPlan } from "../plan/request";

/** Two ends, inclusive: days (`2026-10-01`) where they fall on the zone's midnights, else instants. */
export interface Span {
  from: string;
  to: string;
}

export type OutputDescription =
  | { kind: "stdout" }
  | { kind: "file"; path: string }
  /** A target of whole days in its kind's words (a format is added to them), and as JSON. */
  | { kind: "target"; words: string; json: Record<string, unknown> };

export interface IncrementalDescription {
  stateFile: string;
  lockFile: string;
  stateExists: boolean;
  /** The last day the job exported, as its state records it. */
  lastDay: string | undefined;
  lookbackDays: number;
  start: string | undefined;
  /** Why the run would fetch nothing; undefined when it fetches `range`. */
  nothing: string | undefined;
  /** Days fetched again that the state records: compared with it, rewritten only when changed. */
  again: string[];
  /** A state whose last day is after yesterday (a clock that ran ahead). */
  warning: string | undefined;
  /** --lookback auto: what the run would check, and how (a dry run makes no request, so not what moved). */
  auto: AutoDescription | undefined;
}

export interface AutoDescription {
  learnedHorizonDays: number | null;
  settledThrough: string | undefined;
  horizonDays: number;
  deep: boolean;
  why: string;
  /** The days the state records that the run compares with the service's totals (or fetches whole). */
  checked: { from: string; to: string; days: number } | undefined;
  /** `check`: a totals request first; `fetched in full`: the checked days fetched whole, no dearer. */
  mode: "check" | "fetched in full";
  /** What the totals are asked by (`ad,date`, `campaign,date`, `date`). */
  by: string;
  /** Estimated requests of the totals (check) or of the checked days fetched whole. */
  pages: { check: number; full: number };
  /** The fixed lookback the run uses when the service does not answer the totals request. */
  fallbackDays: number;
}

export interface PlanDescription {
  /** What is fetched; undefined when an incremental run has nothing to do. */
  range: Span | undefined;
  /** The zone of the range's days: UTC, or --tz's. */
  zone: string;
  /** A whole-day target's: the zone of the settings it does not use (a profile's tz), and where it is set. */
  unusedZone: { name: string; source: string } | undefined;
  windows: Span[];
  /** --compare: the period fetched beside the range. */
  compared: { range: Span; windows: Span[] } | undefined;
  output: OutputDescription;
  /** The format of the file, the day files or stdout; undefined for a table. */
  format: string | undefined;
  /** The job's id ({date} files and tables, --incremental or not). */
  job: string | undefined;
  incremental: IncrementalDescription | undefined;
  /** The fewest requests the run makes: one per window (more for reports of several pages). */
  requests: number;
  /** The output's folder is missing or not a folder: the run refuses before any request (exit 2). */
  folder: FolderProblem | undefined;
}

function isDayStart(zone: TimeZone, sec: number): boolean {
  return zone.dayStart(zone.localDay(sec)) === sec;
}

function spanOf(zone: TimeZone, from: number, to: number): Span {
  const instant = (sec: number) => (zone === TimeZone.UTC ? formatDateTime(sec) : zone.dateTimeText(sec));
  return {
    from: isDayStart(zone, from) ? zone.dateText(from) : instant(from),
    to: isDayStart(zone, to + 1) ? zone.dateText(to) : instant(to),
  };
}

function windowSpans(
  zone: TimeZone,
  windows: ReadonlyArray<{ from: string; to: string }> | undefined,
  range: { from: number; to: number },
): Span[] {
  if (windows === undefined) return [spanOf(zone, range.from, range.to)];
  // Every window is a date-time splitRange made, which parses.
  const at = (text: string, role: "from" | "to") => parseInstant(text, role) as Instant;
  return windows.map((w) => spanOf(zone, ceilSeconds(at(w.from, "from")), at(w.to, "to").sec));
}

function outputOf(plan: ReportPlan): OutputDescription {
  if (plan.kind === "export") return plan.path === undefined ? { kind: "stdout" } : { kind: "file", path: plan.path };
  return { kind: "target", ...kindOf(plan.output.target).describe(plan.output) };
}

/** The job's state as a run would find it, and the range that state gives. */
async function incrementalOf(
  ctx: DescribeContext,
  plan: DayPlan,
  incremental: IncrementalPlan,
  id: string,
  store: ReturnType<typeof jobStoreFor>,
): Promise<{ described: IncrementalDescription; request: RequestPlan | undefined }> {
  const identity = jobIdentity(plan.settings, plan.request.request, plan.output);
  const earlier = earlierJobId(identity);
  const { paths, state } = await findJobState(ctx.cwd, incremental, ctx.user, { id, earlier }, store);
  if (state === undefined)
    await refuseOtherOwner(incremental.stateFolder, ctx.user, { identity, id, earlier, incremental: true }, store);
  const range = incrementalRange({
    now: plan.now,
    lastDay: state?.lastDay,
    lookbackDays: incremental.lookbackDays,
    start: incremental.start,
    granularity: plan.granularity,
    job: id,
  });
  const fetched = "nothing" in range ? undefined : range;
  const request =
    fetched && planRequest({ ...plan.words, from: fetched.from, to: fetched.to }, plan.now, plan.paging.pageSize);
  const again = Object.keys(state?.days ?? {})
    .filter((day) => fetched !== undefined && day >= fetched.from && day <= fetched.to)
    .sort();
  const auto = incremental.auto && fetched ? autoOf(plan, state, fetched) : undefined;
  return {
    described: {
      // A job its database (or a folder beside its files) keeps and this host has no copy of: named there.
      stateFile: state !== undefined && !existsSync(paths.state) ? `job ${id} in ${store.where}` : paths.state,
      lockFile: paths.lock,
      stateExists: state !== undefined,
      lastDay: state?.lastDay,
      lookbackDays: incremental.lookbackDays,
      start: incremental.start,
      nothing: "nothing" in range ? range.nothing : undefined,
      again,
      warning: fetched?.warning,
      auto,
    },
    request,
  };
}

function autoOf(
  plan: DayPlan,
  state: Parameters<typeof planAuto>[0]["state"],
  fetched: { from: string; to: string },
): AutoDescription {
  const auto = planAuto({
    state,
    newFrom: fetched.from,
    end: fetched.to,
    dimensions: plan.request.request.dimensions,
    pageSize: plan.paging.pageSize,
  });
  const { checked } = auto;
  return {
    learnedHorizonDays: auto.auto.learnedHorizonDays,
    settledThrough: state && settledThrough(state),
    horizonDays: auto.horizon.days,
    deep: auto.horizon.deep,
    why: auto.horizon.why,
    checked:
      checked.length === 0
        ? undefined
        : { from: checked[0] as string, to: checked.at(-1) as string, days: checked.length },
    mode: auto.mode,
    by: auto.grain === "date" ? "date" : `${auto.grain},date`,
    pages: auto.pages,
    fallbackDays: auto.fallbackDays,
  };
}

function unusedZoneOf(plan: DayPlan): PlanDescription["unusedZone"] {
  const { tz } = plan.settings;
  return tz.value === undefined || tz.value === TimeZone.UTC.name ? undefined : { name: tz.value, source: tz.source };
}

/** What describing a plan needs of the run: its folder and user, and how a database keeping its job is opened. */
export interface DescribeContext {
  cwd: string;
  user?: { uid: number } | undefined;
  sqliteAddon?: () => object | undefined;
}

export async function describePlan(ctx: DescribeContext, plan: Readonly<ReportPlan>): Promise<PlanDescription> {
  const common = { output: outputOf(plan), format: plan.write?.format.entry.name, folder: plan.folder };
  if (plan.kind === "export") {
    const { request, compare } = plan;
    const zone = request.zone;
    const windows = windowSpans(zone, request.windows, request.range);
    const period = compare?.period;
    const compared = period && {
      range: spanOf(zone, period.range.from, period.range.to),
      windows: windowSpans(zone, period.windows, period.range),
    };
    return {
      ...common,
      range: spanOf(zone, request.range.from, request.range.to),
      zone: zone.name,
      unusedZone: undefined,
      windows,
      compared,
      job: undefined,
      incremental: undefined,
      requests: windows.length + (compared?.windows.length ?? 0),
    };
  }
  const identity = jobIdentity(plan.settings, plan.request.request, plan.output);
  const job = jobId(identity);
  // The job's store, read and never written: a database's table is not made, a lock not taken.
  const store = jobStoreFor({
    target: plan.output.target,
    stateFile: plan.incremental?.stateFile,
    cwd: ctx.cwd,
    sqliteAddon: ctx.sqliteAddon?.(),
    connectTimeoutMs: plan.settings.timeout.value * 1000,
    connect: plan.output.given,
  });
  let found: Awaited<ReturnType<typeof incrementalOf>> | undefined;
  try {
    if (plan.incremental === undefined) {
      await refuseOtherOwner(
        plan.stateFolder,
        ctx.user,
        { identity, id: job, earlier: earlierJobId(identity), incremental: false },
        store,
      );
    }
    found = plan.incremental && (await incrementalOf(ctx, plan, plan.incremental, job, store));
  } finally {
    await store.close();
  }
  const request = found ? found.request : plan.request;
  const windows = request ? windowSpans(TimeZone.UTC, request.windows, request.range) : [];
  return {
    ...common,
    range: request && spanOf(TimeZone.UTC, request.range.from, request.range.to),
    zone: TimeZone.UTC.name,
    unusedZone: unusedZoneOf(plan),
    windows,
    compared: undefined,
    job,
    incremental: found?.described,
    requests: windows.length + (found?.described.auto?.mode === "check" ? found.described.auto.pages.check : 0),
  };
}
