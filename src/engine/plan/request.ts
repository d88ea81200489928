/**
 * Flags to a report request, checked with the contract before anything is sent. A range over 90 days is
 * cut into windows unless --no-split; each window is checked too.
 */
import {
  ceilSeconds,
  type Granularity,
  isDimension,
  parseInstant,
  parseReportQuery,
  type ReportRequest,
  type RequestRuleError,
  splitRange,
} from "../../contract";
import type { BucketUnit } from "../../core/calendar";
import { UsageError } from "../../core/errors";
import { TimeZone } from "../../core/time-zone";
import { readMetricList } from "./metric-list";
import { checkRequestWords, inFlagWords, positiveId, trimmedList } from "./request-words";
import { resolveWhen } from "./when";
import { instantInZone, requireWholeHourOffsets } from "./zone-range";

/** The words of the flags that make the request, as given. */
export interface RequestWords {
  from?: string | undefined;
  to?: string | undefined;
  metrics?: string | undefined;
  dimensions?: string | undefined;
  granularity?: string | undefined;
  campaign?: string | undefined;
  ad?: string | undefined;
  /** False with --no-split: a range over 90 days is refused instead of fetched in windows. */
  split: boolean;
}

/** Only the request's words, from flags that hold more. */
export function requestWordsOf(words: RequestWords): RequestWords {
  const { from, to, metrics, dimensions, granularity, campaign, ad, split } = words;
  return { from, to, metrics, dimensions, granularity, campaign, ad, split };
}

export interface RequestPlan {
  request: ReportRequest;
  /** Set when the range is fetched in windows of at most 90 days. */
  windows: Array<{ from: string; to: string }> | undefined;
  /** The output metrics as --metrics listed them (ratios included); `request.metrics` are the counters fetched. */
  listed: string[];
  granularity: Granularity;
  /** YYYY-MM-DD of the range's ends (in the zone), for {from} and {to} in --output. */
  fromDate: string;
  toDate: string;
  /** --tz (UTC when not given): the zone of the range's days and of the date buckets. */
  zone: TimeZone;
  /** With --tz and `date`: hours are asked for and summed here into buckets of this unit (hour: none). */
  bucketUnit: BucketUnit | undefined;
  /** The range in whole seconds, both ends inclusive. */
  range: { from: number; to: number };
}

function flagError(error: RequestRuleError): UsageError {
  const hint =
    error.code === "range_too_long"
      ? "without --no-split, adreport fetches longer ranges in 90-day windows"
      : error.code === "unsupported_metric"
        ? "keyword reports carry views, spending and clicks only"
        : undefined;
  return new UsageError(inFlagWords(error.param, error.message), { hint });
}

export function planRequest(
  flags: RequestWords,
  now: Date,
  pageSize: number,
  zone: TimeZone = TimeZone.UTC,
): RequestPlan {
  const local = zone === TimeZone.UTC ? undefined : zone;
  const from = planInstant(resolveWhen(flags.from ?? "-7d", now, "--from", local), "from", local);
  const to = planInstant(resolveWhen(flags.to ?? "yesterday", now, "--to", local), "to", local);
  checkRequestWords(flags);
  const dimensions = trimmedList(flags.dimensions);
  const dimensionWords = dimensions?.split(",").filter(isDimension) ?? [];
  const metrics = readMetricList(flags.metrics, dimensionWords);
  const params: Record<string, string> = {
    from,
    to,
    metrics: metrics.fetched.join(","),
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
  const range = { from: ceilSeconds(query.from), to: query.to.sec };
  if (windows) {
    range.from = ceilSeconds(parseInstant(from, "from") ?? query.from);
    range.to = (parseInstant(to, "to") ?? query.to).sec;
  }
  let bucketUnit: BucketUnit | undefined;
  if (local) {
    requireWholeHourOffsets(local, range.from, range.to);
    if (query.byDate) bucketUnit = query.granularity;
  }
  return {
    request: {
      from,
      to,
      metrics: query.metrics,
      dimensions: query.dimensions,
      granularity: bucketUnit !== undefined && bucketUnit !== "hour" ? "hour" : params.granularity,
      campaignId: query.campaignId,
      adId: query.adId,
    },
    windows,
    listed: metrics.listed,
    granularity: query.granularity,
    fromDate: zone.dateText((parseInstant(from, "from") ?? query.from).sec),
    toDate: zone.dateText(range.to),
    zone,
    bucketUnit,
    range,
  };
}

/** A resolved --from / --to; with --tz a bare date becomes the instant its local day starts or ends. */
function planInstant(text: string, role: "from" | "to", zone: TimeZone | undefined): string {
  return zone === undefined ? text : instantInZone(text, role, zone);
}
