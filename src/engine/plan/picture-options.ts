/** What the picture formats (html, chart) need beyond the rows: the query in words, the time, the width. */
import { UsageError } from "../../core/errors";
import { TimeZone } from "../../core/time-zone";
import type { FormatOptions } from "../../format/formatter";
import { formatNamed } from "../../format/registry";
import type { EngineContext } from "../context";
import type { CompareMode } from "./compare-modes";
import type { RequestPlan } from "./request";

/**
 * `campaign, date from 2026-10-01 to 2026-10-31 (day): views, ctr; campaign 7`: the report as asked for
 * (the metrics listed, --tz's buckets and range with their offset), not the counters and hours fetched.
 */
export function queryText(plan: RequestPlan, compare?: CompareMode): string {
  const { request, zone, range } = plan;
  const dims = request.dimensions.length > 0 ? request.dimensions.join(", ") : "totals";
  const unit = plan.bucketUnit ?? request.granularity ?? "day";
  const granularity = request.dimensions.includes("date") ? ` (${unit})` : "";
  const period =
    zone === TimeZone.UTC
      ? `from ${request.from} to ${request.to}`
      : `from ${zone.dateTimeText(range.from)} to ${zone.dateTimeText(range.to)} (${zone.name})`;
  const filters = [
    ...(request.campaignId === undefined ? [] : [`campaign ${request.campaignId}`]),
    ...(request.adId === undefined ? [] : [`ad ${request.adId}`]),
    ...(compare === undefined ? [] : [`compared with the ${compare === "year" ? "year before" : "previous period"}`]),
  ];
  return `${dims} ${period}${granularity}: ${plan.listed.join(", ")}${filters.length > 0 ? `; ${filters.join(", ")}` : ""}`;
}

export function pictureOptions(
  ctx: Pick<EngineContext, "now" | "io">,
  plan: RequestPlan,
  compare?: CompareMode,
): Pick<FormatOptions, "query" | "exportedAt" | "width"> {
  return { query: `adreport report: ${queryText(plan, compare)}`, exportedAt: ctx.now(), width: ctx.io.columns };
}

/** Refused before anything is fetched: a format that cannot be drawn without a dimension (a chart over dates). */
export function checkPictureRequest(format: string, plan: RequestPlan): void {
  const needs = formatNamed(format)?.needsDimension;
  if (needs !== undefined && !plan.request.dimensions.includes(needs.name)) {
    throw new UsageError(`--format ${format} ${needs.why}; this report has no ${needs.name} dimension`, {
      hint: needs.hint,
    });
  }
}
