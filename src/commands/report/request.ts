/**
 * Flags to a report request, checked with the contract before anything is sent. A range over 90 days is
 * cut into windows unless --no-split; each window is checked too.
 */
import { splitRange } from "../../api";
import {
  formatDate,
  isDimension,
  metricsAllowedFor,
  parseInstant,
  parseReportQuery,
  type ReportRequest,
  type RequestRuleError,
} from "../../contract";
import { UsageError } from "../../core/errors";
import { readWholeNumber } from "../../core/whole-number";
import { resolveWhen } from "../shared/when";
import type { ReportFlags } from "./command";

export interface RequestPlan {
  request: ReportRequest;
  /** Set when the range is fetched in windows of at most 90 days. */
  windows: Array<{ from: string; to: string }> | undefined;
  /** YYYY-MM-DD of the range's ends (UTC), for {from} and {to} in --output. */
  fromDate: string;
  toDate: string;
}

const FLAG_OF_PARAM: Record<string, string> = {
  from: "--from",
  to: "--to",
  metrics: "--metrics",
  dimensions: "--dims",
  granularity: "--granularity",
  campaign_id: "--campaign",
  ad_id: "--ad",
  limit: "--page-size",
};

function flagError(error: RequestRuleError): UsageError {
  const flag = FLAG_OF_PARAM[error.param] ?? error.param;
  const message = error.message.startsWith(`${error.param}: `)
    ? `${flag}: ${error.message.slice(error.param.length + 2)}`
    : error.message;
  const hint =
    error.code === "range_too_long"
      ? "without --no-split, adreport fetches longer ranges in 90-day windows"
      : error.code === "unsupported_metric"
        ? "keyword reports carry views, spending and clicks only"
        : undefined;
  return new UsageError(message, { hint });
}

function list(text: string | undefined): string | undefined {
  return text
    ?.split(",")
    .map((item) => item.trim())
    .join(",");
}

function positiveId(text: string | undefined, flag: string): string | undefined {
  if (text === undefined) return undefined;
  const id = text.trim();
  const value = readWholeNumber(id);
  if (value === undefined || value < 1)
    throw new UsageError(`${flag}: ${JSON.stringify(text)} is not a positive integer id`);
  return id;
}

export function planRequest(flags: ReportFlags, now: Date, pageSize: number): RequestPlan {
  const from = resolveWhen(flags.from ?? "-7d", now, "--from");
  const to = resolveWhen(flags.to ?? "yesterday", now, "--to");
  const dimensions = list(flags.dimensions);
  const dimensionWords = dimensions?.split(",").filter(isDimension) ?? [];
  const params: Record<string, string> = {
    from,
    to,
    metrics: list(flags.metrics) ?? metricsAllowedFor(dimensionWords).join(","),
    page: "1",
    limit: String(pageSize),
  };
  if (dimensions !== undefined) params.dimensions = dimensions;
  if (flags.granularity !== undefined) params.granularity = flags.granularity.trim();
  const campaign = positiveId(flags.campaign, "--campaign");
  const ad = positiveId(flags.ad, "--ad");
  if (campaign !== undefined) params.campaign_id = campaign;
  if (ad !== undefined) params.ad_id = ad;

  let parsed = parseReportQuery(params);
  let windows: RequestPlan["windows"];
  if (!parsed.ok && parsed.error.code === "range_too_long" && flags.split) {
    windows = splitRange(from, to);
    for (const w of windows) {
      parsed = parseReportQuery({ ...params, from: w.from, to: w.to });
      if (!parsed.ok) break;
    }
  }
  if (!parsed.ok) throw flagError(parsed.error);
  const query = parsed.query;
  return {
    request: {
      from,
      to,
      metrics: query.metrics,
      dimensions: query.dimensions,
      granularity: params.granularity,
      campaignId: query.campaignId,
      adId: query.adId,
    },
    windows,
    fromDate: formatDate((parseInstant(from, "from") ?? query.from).sec),
    toDate: formatDate((parseInstant(to, "to") ?? query.to).sec),
  };
}
