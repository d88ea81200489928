/** What the picture formats (html, chart) need beyond the rows: the query in words, the time, the width. */
import { UsageError } from "../../core/errors";
import type { FormatOptions } from "../../format/formatter";
import type { Context } from "../context";
import type { RequestPlan } from "./request";

/** `campaign, date from 2026-10-01 to 2026-10-31 (day): views, clicks; campaign 7` */
export function queryText(plan: RequestPlan): string {
  const { request } = plan;
  const dims = request.dimensions.length > 0 ? request.dimensions.join(", ") : "totals";
  const granularity = request.dimensions.includes("date") ? ` (${request.granularity ?? "day"})` : "";
  const filters = [
    ...(request.campaignId === undefined ? [] : [`campaign ${request.campaignId}`]),
    ...(request.adId === undefined ? [] : [`ad ${request.adId}`]),
  ];
  return `${dims} from ${request.from} to ${request.to}${granularity}: ${request.metrics.join(", ")}${filters.length > 0 ? `; ${filters.join(", ")}` : ""}`;
}

export function pictureOptions(ctx: Context, plan: RequestPlan): Pick<FormatOptions, "query" | "exportedAt" | "width"> {
  return { query: `adreport report: ${queryText(plan)}`, exportedAt: ctx.now(), width: ctx.io.columns };
}

/** Refused before anything is fetched: a line chart over dates needs the date dimension. */
export function checkPictureRequest(format: string, plan: RequestPlan): void {
  if (format === "chart" && !plan.request.dimensions.includes("date")) {
    throw new UsageError("--format chart draws a metric over dates; this report has no date dimension", {
      hint: "add date to --dims (--dims campaign,date), or use --format html for a bar chart",
    });
  }
}
