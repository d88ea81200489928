/**
 * Fetches a run's days unit by unit (engine/days/units.ts), compares each day with what the job's state recorded,
 * and puts the unit's days in place: the files that changed, or every day of a table, with a ledger entry
 * per day (the run, the requests of its window, when) in the job's state and in the table's adreport_loads.
 */
import { openWindows } from "../../api";
import type { PagedReport } from "../../api/paginate";
import { type DayRecord, differences } from "../../state/day-record";
import type { EngineContext } from "../context";
import type { EngineEvents } from "../events";
import type { DayPlan } from "../plan/plan";
import type { RequestPlan } from "../plan/request";
import { type Session, withSession } from "../run/session";
import type { DaySummary } from "../run/summary";
import { type CheckGrain, CheckTally, NO_ROWS_DIGEST, namedAt } from "./check-digest";
import type { IncrementalJob } from "./incremental-job";
import type { OpenTarget } from "./target";
import { type DayUnit, unitsOf } from "./units";

export interface DayWriteRun {
  ctx: EngineContext;
  plan: DayPlan;
  events: EngineEvents;
  request: RequestPlan;
  target: OpenTarget;
  job: IncrementalJob | undefined;
  summary: DaySummary;
  runId: string;
  /** Commit and record each window as it is in (an incremental job's ordinary run). */
  checkpoints: boolean;
  /** --lookback auto: what to fetch is decided in the session (a totals request first). */
  auto?: AutoWrite | undefined;
}

export interface AutoWrite {
  /** The spans to fetch, one after the other, decided with the session's client (a totals request). */
  plans(session: Session): AsyncIterable<RequestPlan>;
  /** The check digests each fetched day gets, from its rows. */
  grains: readonly CheckGrain[];
  /** Filled: the days found restated when written (their totals or, for files, their bytes changed). */
  restated: string[];
  /** Waited for before a unit's days are put in place: the decision, so the ledger written with them holds it. */
  beforeCommit(): Promise<void>;
}

export async function writeUnits(run: DayWriteRun): Promise<void> {
  const { ctx, plan, events, target, summary } = run;
  // Said after the progress display is gone, whether the run ends well or not.
  const changed: Array<[string, string]> = [];
  const committed = { started: false };
  try {
    await withSession(
      {
        ctx,
        events,
        plan,
        counts: summary,
        howFar: (progress) =>
          target.waiting() ?? (progress ? `${progress.rows} of ${progress.total} rows` : "the first page had not come"),
        // Said when the signal comes: a window's commit under way then is let finish, so it counts as done.
        interrupted: () =>
          run.checkpoints && committed.started
            ? `interrupted; the windows finished are in place and recorded, ${target.description} is otherwise as it was (the next run continues)`
            : `interrupted; ${target.description} was left as it was`,
        abortNow: () => target.abortNow(),
        abortOnDeadline: true,
      },
      async (session) => {
        const requests = run.auto ? run.auto.plans(session) : [run.request];
        for await (const request of requests) {
          for (const unit of unitsOf(request, plan.granularity, run.checkpoints)) {
            await writeUnit({ ...run, request }, session, unit, changed, committed);
          }
        }
        session.view.stop();
      },
    );
  } finally {
    for (const [day, what] of changed) events.dayChanged(day, what);
  }
}

async function writeUnit(
  run: DayWriteRun,
  session: Session,
  unit: DayUnit,
  changed: Array<[string, string]>,
  committed: { started: boolean },
): Promise<void> {
  const { plan, request, target, job, summary } = run;
  const paging = { ...plan.paging, onProgress: session.onProgress, signal: session.signal };
  const requestsBefore = summary.requests;
  const records = new Map<string, DayRecord>();
  await session.withRestart(
    async () => {
      records.clear();
      const { metrics, dimensions } = request.request;
      const tallies = (run.auto?.grains ?? []).map(
        (grain) => new CheckTally(grain, metrics, namedAt(grain, dimensions)),
      );
      for (const pass of unit.passes) {
        const opened = tapped(await openWindows(session.api, request.request, pass.windows, paging), tallies);
        for (const [day, record] of await target.stage(opened, pass.span)) records.set(day, record);
      }
      for (const tally of tallies) {
        const digests = tally.digests();
        for (const [day, record] of records) {
          const digest = digests.get(day) ?? (tally.sums().has(day) ? undefined : NO_ROWS_DIGEST);
          if (digest !== undefined) record.checks = { ...record.checks, [tally.grain]: digest };
        }
      }
    },
    { canRestart: () => true, restart: () => target.restart() },
  );
  const write = new Set<string>();
  for (const [day, record] of [...records].sort(([a], [b]) => (a < b ? -1 : 1))) {
    summary.rows += record.rows;
    const before = job?.recordOf(day);
    const changes = before ? differences(before, record) : [];
    // Only a day the state knows is compared with its output: every other day is written anyway.
    const found = before ? await target.found(day) : "missing";
    if (before && changes.length > 0) {
      if (!changes[0]?.startsWith("written again once")) run.auto?.restated.push(day);
      changed.push([day, changes.join(", ")]);
      summary.days_changed += 1;
    } else if (before && found === "missing") {
      changed.push([day, "its file was missing; written again"]);
      summary.days_changed += 1;
    } else if (before && found === "other") {
      changed.push([day, "its file was changed since it was written; written again"]);
      summary.days_changed += 1;
    } else if (before) {
      summary.days_unchanged += 1;
    }
    if (!before || changes.length > 0 || found !== "as staged" || !job) write.add(day);
  }
  if (session.signal.aborted) throw session.signal.reason;
  const requests = summary.requests - requestsBefore;
  const at = run.ctx.now().toISOString();
  const put = target.replacesAll ? new Set(records.keys()) : write;
  const ledger = new Map<string, DayRecord>();
  for (const [day, record] of records) {
    // A day left as it was keeps the entry of the run that wrote it.
    const kept = put.has(day) ? undefined : job?.recordOf(day);
    const checks = record.checks && { checks: { ...kept?.checks, ...record.checks } };
    ledger.set(day, kept ? { ...kept, ...checks } : { ...record, run: run.runId, requests, at });
  }
  const loads = [...put].sort().map((day) => {
    const record = records.get(day) as DayRecord;
    return { day, rows: record.rows, sums: record.sums, requests };
  });
  await run.auto?.beforeCommit();
  committed.started = true;
  await target.commit(put, loads);
  for (const [day, record] of records) run.events.dayInPlace?.(day, record.rows);
  // For every target: written = new or changed content, unchanged = as the last run left it (docs/service.md §9).
  summary.days_written += write.size;
  await job?.recordDays(ledger, run.checkpoints ? unit.lastDay : undefined);
}

/** The report as it was, its rows tallied on their way to the target. */
function tapped(report: PagedReport, tallies: readonly CheckTally[]): PagedReport {
  if (tallies.length === 0) return report;
  async function* pages() {
    for await (const page of report.pages) {
      for (const row of page.rows) for (const tally of tallies) tally.add(row);
      yield page;
    }
  }
  return { ...report, pages: pages() };
}
