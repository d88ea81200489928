/**
 * One --lookback auto run: the totals request over the checked days (the job's entity, or a coarser one, by
 * day; one request per 90 days where it fits a page), compared with the ledger; the spans then fetched in
 * full (the new days and the days that moved); and what the ledger keeps of it. A service that does not
 * answer the totals request as `serve` does (an error, a refusal, another shape) makes the run fetch a
 * fixed lookback instead, with one warning: never less.
 */
import { openWindows, type ReportApi } from "../../api";
import type { ReportRequest } from "../../contract";
import { type AutoDecision, type AutoLookbackState, DECISIONS_KEPT, type Refetch } from "../../state/auto-lookback";
import type { JobState } from "../../state/store";
import { type CheckedDay, movedDays, spansToFetch } from "./auto-compare";
import { daysBefore, keepRestated, learnHorizon } from "./auto-horizon";
import { type AutoPlan, rowsEstimate } from "./auto-plan";
import { CheckTally, NO_ROWS_DIGEST, namedAt } from "./check-digest";

export interface AutoOutcome {
  /** The spans to fetch in full, oldest first; the last ends on the run's last day. */
  spans: Array<{ from: string; to: string }>;
  decision: AutoDecision;
  /** The totals' digests of the checked days (kept in their ledger entries, over those of their rows). */
  checks: Map<string, Record<string, string>>;
  /** The oldest age at which this run found a restated day, if it found one. */
  oldest: number | undefined;
  /** The most rows one day of the totals held, by the check's dimension: sizes the next check. */
  checkRows: { grain: string; rows: number } | undefined;
  warning: string | undefined;
}

/** Why the totals answer cannot be compared: a shape `serve` never sends. */
class OtherShape extends Error {}

const at = (day: string, end: boolean) => `${day}T${end ? "23:59:59" : "00:00:00"}Z`;

/**
 * The totals by the plan's grain of the checked days and the new ones (whose digests are then the totals',
 * as the next check compares them), in windows of 90 days.
 */
async function askTotals(
  api: ReportApi,
  request: ReportRequest,
  plan: AutoPlan,
  paging: { pageSize: number; concurrency: number; signal: AbortSignal },
): Promise<{ days: Map<string, CheckedDay>; perDay: number; requests: number }> {
  const { grain } = plan;
  const checked = [...plan.checked, ...newDays(plan)];
  const metrics = [...request.metrics];
  const tally = new CheckTally(grain, metrics, namedAt(grain, request.dimensions));
  const totals: ReportRequest = {
    from: at(checked[0] as string, false),
    to: at(checked.at(-1) as string, true),
    metrics: request.metrics,
    dimensions: grain === "date" ? ["date"] : [grain, "date"],
    granularity: "day",
    campaignId: request.campaignId,
    adId: request.adId,
  };
  const windows: Array<{ from: string; to: string }> = [];
  for (let i = 0; i < checked.length; i += 90) {
    const part = checked.slice(i, i + 90);
    windows.push({ from: at(part[0] as string, false), to: at(part.at(-1) as string, true) });
  }
  const wanted = new Set(checked);
  let requests = 0;
  const report = await openWindows(api, totals, windows, { ...paging });
  const dims = report.meta.dimensions;
  if (!dims.includes("date") || (grain !== "date" && !dims.includes(grain))) {
    throw new OtherShape(`its dimensions were ${JSON.stringify(dims)}`);
  }
  for await (const page of report.pages) {
    requests += 1;
    for (const row of page.rows) {
      if (!tally.add(row)) throw new OtherShape("a row without a day, an id or a number per metric");
    }
  }
  const sums = tally.sums();
  const digests = tally.digests();
  const days = new Map<string, CheckedDay>();
  for (const [day, daySums] of sums) {
    if (!wanted.has(day)) throw new OtherShape(`a row of ${day}, outside the days asked for`);
    days.set(day, { sums: daySums, digest: digests.get(day) });
  }
  return { days, perDay: tally.mostPerDay(), requests };
}

/** Decides what this run fetches; `api` asks the totals when the plan checks. */
export async function decideAuto(
  api: ReportApi,
  request: ReportRequest,
  plan: AutoPlan,
  state: JobState | undefined,
  run: {
    id: string;
    at: string;
    pageSize: number;
    concurrency: number;
    signal: AbortSignal;
    /** The new days are fetched meanwhile, on their own: the spans leave them out of any other request. */
    fetchingNewDays?: boolean;
  },
): Promise<AutoOutcome> {
  const base = { run: run.id, at: run.at, end: plan.end };
  const fresh = newDayCount(plan);
  const ledger = (day: string) => state?.days[day];
  const rowsOf = rowsEstimate(state);
  const checks = new Map<string, Record<string, string>>();
  if (plan.checked.length === 0 || plan.mode === "fetched in full") {
    const from = plan.checked[0] ?? plan.newFrom;
    // Every checked day is fetched again: the span says so, once, not a line a day.
    const refetched: Refetch[] = [];
    const checkedSpan =
      plan.checked.length === 0
        ? null
        : {
            from,
            to: plan.checked.at(-1) as string,
            days: plan.checked.length,
            by: "fetched whole, no dearer than their totals",
            deep: plan.horizon.deep,
            requests: 0,
          };
    return {
      spans: [{ from, to: plan.end }],
      decision: { ...base, mode: "fetched in full", checked: checkedSpan, refetched, newDays: fresh },
      checks,
      oldest: undefined,
      checkRows: undefined,
      warning: undefined,
    };
  }
  let answer: Awaited<ReturnType<typeof askTotals>>;
  try {
    answer = await askTotals(api, request, plan, run);
  } catch (error) {
    if (run.signal.aborted) throw error;
    return fallback(plan, base, fresh, error, run.fetchingNewDays === true);
  }
  const moved = movedDays(plan.checked, ledger, answer.days, plan.grain);
  for (const day of [...plan.checked, ...newDays(plan)]) {
    const digest = answer.days.has(day) ? answer.days.get(day)?.digest : NO_ROWS_DIGEST;
    if (digest !== undefined) checks.set(day, { [plan.grain]: digest });
  }
  const spans = run.fetchingNewDays
    ? [
        ...spansToFetch(
          moved.map((m) => m.day),
          rowsOf,
          run.pageSize,
        ),
        { from: plan.newFrom, to: plan.end },
      ]
    : spansToFetch([...moved.map((m) => m.day), ...newDays(plan)], rowsOf, run.pageSize);
  const movedSet = new Set(moved.map((m) => m.day));
  const refetched = [...moved];
  // Days between two that moved, fetched in the same request because it costs no more pages.
  for (const span of spans) {
    for (let day = span.from; day < plan.newFrom && day <= span.to; day = daysBefore(day, -1)) {
      if (!movedSet.has(day)) refetched.push({ day, why: "between days fetched again: no dearer in one request" });
    }
  }
  refetched.sort((a, b) => (a.day < b.day ? -1 : 1));
  const endN = plan.end;
  const ages = moved.filter((m) => m.why !== "not in the ledger").map((m) => ageOf(endN, m.day));
  return {
    spans,
    decision: {
      ...base,
      mode: "checked",
      checked: {
        from: plan.checked[0] as string,
        to: plan.checked.at(-1) as string,
        days: plan.checked.length,
        by: plan.grain === "date" ? "date" : `${plan.grain},date`,
        deep: plan.horizon.deep,
        requests: answer.requests,
      },
      refetched,
      newDays: fresh,
    },
    checks,
    oldest: ages.length === 0 ? undefined : Math.max(...ages),
    checkRows: { grain: plan.grain, rows: answer.perDay },
    warning: undefined,
  };
}

function fallback(
  plan: AutoPlan,
  base: Pick<AutoDecision, "run" | "at" | "end">,
  fresh: number,
  error: unknown,
  apart: boolean,
): AutoOutcome {
  const reason =
    error instanceof OtherShape
      ? `it answered in another shape (${error.message})`
      : error instanceof Error
        ? error.message
        : String(error);
  const days = plan.fallbackDays;
  const back = daysBefore(plan.newFrom, days);
  // Never before the job's first day: those days were never this job's.
  const from = plan.firstDay !== undefined && back < plan.firstDay ? plan.firstDay : back;
  const warning =
    `the service did not answer the totals --lookback auto asks for (${reason}); ` +
    `this run fetches again the last ${days} days instead (--lookback ${days}d)`;
  const decision: AutoDecision = {
    ...base,
    mode: "fallback",
    checked: null,
    refetched: [],
    newDays: fresh,
    fallback: { lookbackDays: days, reason },
  };
  const before = daysBefore(plan.newFrom, 1);
  return {
    spans:
      apart && from <= before
        ? [
            { from, to: before },
            { from: plan.newFrom, to: plan.end },
          ]
        : [{ from: from < plan.newFrom ? from : plan.newFrom, to: plan.end }],
    decision,
    checks: new Map<string, Record<string, string>>(),
    oldest: undefined,
    checkRows: undefined,
    warning,
  };
}

export function ageOf(end: string, day: string): number {
  return Math.round((Date.parse(end) - Date.parse(day)) / 86_400_000);
}

function newDays(plan: AutoPlan): string[] {
  const days: string[] = [];
  for (let day = plan.newFrom; day <= plan.end; day = daysBefore(day, -1)) days.push(day);
  return days;
}

function newDayCount(plan: AutoPlan): number {
  return newDays(plan).length;
}

/**
 * The job's auto state after this run: its decision kept, its run counted, and the horizon learned again
 * from the restatements seen (by the totals, and `written`: the days this run found changed when it wrote them).
 */
export function nextAutoState(plan: AutoPlan, outcome: AutoOutcome, written: readonly string[]): AutoLookbackState {
  const { auto } = plan;
  // A fallback's own days teach nothing: its lookback comes from the horizon, and learning from what it
  // fetched would widen it run after run against a service that never answers the totals.
  const fellBack = outcome.decision.mode === "fallback";
  const ages = fellBack ? [] : written.map((day) => ageOf(plan.end, day)).filter((age) => age > 0);
  const oldest = Math.max(outcome.oldest ?? -1, ...ages);
  const restated = keepRestated(auto.restated, plan.end, oldest >= 0 ? oldest : undefined);
  const looked = outcome.decision.checked !== null || auto.learnedHorizonDays !== null;
  const rows = { ...auto.checkRowsPerDay };
  if (outcome.checkRows !== undefined) rows[outcome.checkRows.grain] = outcome.checkRows.rows;
  return {
    learnedHorizonDays: looked ? learnHorizon(restated, plan.end) : null,
    runs: auto.runs + 1,
    checkRowsPerDay: rows,
    restated,
    decisions: [...auto.decisions, outcome.decision].slice(-DECISIONS_KEPT),
  };
}
