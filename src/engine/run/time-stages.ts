/**
 * The stages of --tz and --compare, in their order: the report re-bucketed into the zone, then `between`
 * (empty buckets filled), then paired with the earlier period (opened here, with the same rules, and
 * re-bucketed and filled the same way). Every `_change` is computed later, with the ratios
 * (transform/metrics.ts). Without --tz, --compare or --fill the report goes through untouched.
 */
import type { ReportRequest } from "../../contract";
import type { ReportStream } from "../../contract/report-stream";
import { formatDateTime } from "../../core/calendar";
import { TimeZone } from "../../core/time-zone";
import { compareWithPrevious } from "../../transform/compare";
import { rebucket } from "../../transform/rebucket";
import type { ComparedPeriod } from "../plan/compare";
import type { CompareMode } from "../plan/compare-modes";
import type { RequestPlan } from "../plan/request";

type OpenPeriod = (request: ReportRequest, windows: ComparedPeriod["windows"]) => Promise<ReportStream>;

function inZone(report: ReportStream, plan: RequestPlan): ReportStream {
  return plan.zone === TimeZone.UTC ? report : rebucket(report, plan.zone, plan.bucketUnit ?? "hour");
}

export async function inZoneAndCompared(
  report: ReportStream,
  plan: RequestPlan,
  compare: { mode: CompareMode; period: ComparedPeriod } | undefined,
  openPeriod: OpenPeriod,
  /** A stage between the zone and the comparison, applied to each period over its range (--fill). */
  between: (report: ReportStream, range: { from: number; to: number }) => ReportStream = (r) => r,
): Promise<ReportStream> {
  const current = between(inZone(report, plan), plan.range);
  if (compare === undefined) return current;
  const { mode, period } = compare;
  const previous = between(inZone(await openPeriod(period.request, period.windows), plan), period.range);
  // Both periods as the same kind of text: UTC instants, or the zone's local times with their offset.
  const text = (range: { from: number; to: number }) =>
    plan.zone === TimeZone.UTC
      ? { from: formatDateTime(range.from), to: formatDateTime(range.to) }
      : { from: plan.zone.dateTimeText(range.from), to: plan.zone.dateTimeText(range.to) };
  return compareWithPrevious(current, previous, {
    zone: plan.zone,
    currentFrom: plan.range.from,
    previousFrom: period.range.from,
    mode,
    currentRange: text(plan.range),
    previousRange: text(period.range),
  });
}
