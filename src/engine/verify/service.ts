/**
 * `verify --against-service`: the service's daily totals over a job's history (`date` by day, or by the job's
 * week or month; one request per 90 days), compared with the ledger, so a day the service restated after
 * the lookback passed it is named.
 */
import { openWindows } from "../../api";
import type { ResolvedSettings } from "../../config/resolve";
import { bucketUnitOf, dayOfText, dayText, monthStart } from "../../core/calendar";
import { addRow, type DayRecord, emptyRecord, totalDifferences } from "../../state/day-record";
import type { JobState } from "../../state/store";
import { dayOf } from "../../targets/files/writer";
import type { EngineContext } from "../context";
import { planRequest } from "../plan/request";
import { reportApiFor } from "../run/report-api";
import type { DayDifference, VerifyWindow } from "./target";
import { ledgerDays } from "./target";

/** The last day of the bucket starting on `day` (a day, a week, a month), at most `lastDay`. */
export function bucketEnd(granularity: string, day: string, lastDay: string): string {
  const unit = bucketUnitOf(granularity);
  const start = dayOfText(day) as number;
  const end = unit === "week" ? start + 6 : unit === "month" ? monthStart(start, 1) - 1 : start;
  const cap = dayOfText(lastDay) as number;
  return dayText(end < cap ? end : cap);
}

export async function serviceTotals(
  ctx: EngineContext,
  settings: ResolvedSettings,
  apiKey: string,
  state: JobState,
  window: VerifyWindow,
): Promise<Map<string, DayRecord>> {
  const { job } = state;
  const days = ledgerDays(state, window);
  const first = days[0];
  const last = days.at(-1);
  if (first === undefined || last === undefined) return new Map();
  const granularity = job.granularity === "hour" ? "day" : job.granularity;
  const plan = planRequest(
    {
      from: first,
      // A week or a month is dated by its first day: the range runs to the end of the last one (or the job's
      // last day), whatever --to says, or its service total would be of part of it.
      to: bucketEnd(job.granularity, last, state.lastDay),
      dimensions: "date",
      metrics: job.metrics.join(","),
      granularity,
      campaign: job.campaignId === null ? undefined : String(job.campaignId),
      ad: job.adId === null ? undefined : String(job.adId),
      split: true,
    },
    ctx.now(),
    1000,
  );
  const api = reportApiFor(ctx, settings, apiKey);
  const totals = new Map<string, DayRecord>();
  try {
    const paging = { pageSize: 1000, concurrency: 1 };
    const report = await openWindows(api, plan.request, plan.windows, paging);
    for await (const page of report.pages) {
      for (const row of page.rows) {
        const day = dayOf(row);
        if (day === undefined) continue;
        let record = totals.get(day);
        if (!record) {
          record = emptyRecord(job.metrics);
          totals.set(day, record);
        }
        addRow(record, row);
      }
    }
  } finally {
    await api.close();
  }
  return totals;
}

/** The ledger's days whose counters the service now gives otherwise (rows are not compared: one a day here). */
export function serviceDifferences(
  state: JobState,
  window: VerifyWindow,
  totals: ReadonlyMap<string, DayRecord>,
): DayDifference[] {
  const differences: DayDifference[] = [];
  for (const day of ledgerDays(state, window)) {
    const record = state.days[day];
    if (record === undefined) continue;
    const service = totals.get(day) ?? emptyRecord(Object.keys(record.sums));
    const changes = totalDifferences({ rows: 0, sums: record.sums }, { rows: 0, sums: service.sums });
    if (changes.length > 0) differences.push({ day, kind: "service", changes: changes.map((c) => `service: ${c}`) });
  }
  return differences;
}
