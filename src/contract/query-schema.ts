/**
 * The rules of the query of `GET /v1/report` (docs/service.md §2) as one zod schema, declared once: the
 * server parses requests with it and the client checks what it is about to send with it, so both refuse
 * exactly the same things. Each refusal carries its error code (docs/service.md §5); query.ts turns the
 * first one into a RequestRuleError.
 */
import * as z from "zod";
import { formatDateTime, SECONDS_PER_DAY, SECONDS_PER_HOUR } from "../core/calendar";
import {
  DEFAULT_GRANULARITY,
  DEFAULT_LIMIT,
  DIMENSIONS,
  type Dimension,
  ENTITY_DIMENSIONS,
  type EntityDimension,
  type Granularity,
  isEntityDimension,
  KEYWORD_METRICS,
  MAX_LIMIT,
  MAX_RANGE_SECONDS,
  METRICS,
  type Metric,
} from "./fields";
import { MAX_WHOLE, positiveInteger } from "./positive-integer";
import { granularity, instant, nameList } from "./query-fields";
import { refuse } from "./refusal";
import { compareInstants, type Instant, secondsBetween, spanExceeds } from "./time";

/** A request that passed every rule, normalised. */
export interface ReportQuery {
  from: Instant;
  to: Instant;
  /** In request order. */
  metrics: Metric[];
  /** Entity first, then `date` (the order of `meta.dimensions`). */
  dimensions: Dimension[];
  entity: EntityDimension | undefined;
  byDate: boolean;
  granularity: Granularity;
  campaignId: number | undefined;
  adId: number | undefined;
  page: number;
  /** As applied: at most MAX_LIMIT. */
  limit: number;
}

function describeSpan(seconds: number): string {
  const days = Math.floor(seconds / SECONDS_PER_DAY);
  const rest = seconds - days * SECONDS_PER_DAY;
  if (rest === 0) return `${days} days`;
  const h = Math.floor(rest / SECONDS_PER_HOUR);
  const m = Math.floor((rest % SECONDS_PER_HOUR) / 60);
  const s = Math.round((rest % 60) * 1e9) / 1e9;
  return `${days} days ${h}h ${m}m ${s}s`;
}

export const reportQuerySchema = z
  .strictObject({
    from: instant("from", "Start of the range, inclusive."),
    to: instant(
      "to",
      `End of the range, inclusive; not before from, at most ${MAX_RANGE_SECONDS / SECONDS_PER_DAY} x 24 h after it.`,
    ),
    metrics: nameList("metrics", METRICS, "A comma list of metrics, in the order the rows carry them."),
    dimensions: nameList(
      "dimensions",
      DIMENSIONS,
      `A comma list; without it the report is one grand-total row. At most one of ${ENTITY_DIMENSIONS.join(", ")}; keyword never with date, nor with the metric conversions.`,
    ).optional(),
    granularity: granularity.optional(),
    campaign_id: positiveInteger(
      "campaign_id",
      "a positive integer id",
      `Only this campaign; one that is not the key's advertiser's is 403. At most ${MAX_WHOLE}.`,
      "refuse",
    ).optional(),
    ad_id: positiveInteger(
      "ad_id",
      "a positive integer id",
      `Only this ad; one that is not the key's advertiser's is 403. With campaign_id: no rows unless the ad is in it. At most ${MAX_WHOLE}.`,
      "refuse",
    ).optional(),
    page: positiveInteger(
      "page",
      "an integer >= 1",
      `Page number, from 1 (the default) to ${MAX_WHOLE}; a page past the end has no rows.`,
      "refuse",
    ).optional(),
    limit: positiveInteger(
      "limit",
      "an integer >= 1",
      `Rows per page, default ${DEFAULT_LIMIT}; above ${MAX_LIMIT} it is applied as ${MAX_LIMIT} (meta.limit says so).`,
      "cap",
    ).optional(),
  })
  .superRefine((q, ctx) => {
    if (compareInstants(q.to, q.from) < 0) {
      refuse(ctx, "invalid_parameter", `to: ${formatDateTime(q.to.sec)} is before from ${formatDateTime(q.from.sec)}`, [
        "to",
      ]);
      return;
    }
    if (spanExceeds(q.from, q.to, MAX_RANGE_SECONDS)) {
      refuse(ctx, "range_too_long", `to: range is ${describeSpan(secondsBetween(q.from, q.to))}, at most 90 days`, [
        "to",
      ]);
      return;
    }
    const dims = q.dimensions ?? [];
    const entities = dims.filter(isEntityDimension);
    if (entities.length > 1) {
      refuse(
        ctx,
        "unsupported_combination",
        `dimensions: at most one of campaign, ad, keyword (got ${entities.join(", ")})`,
        ["dimensions"],
      );
      return;
    }
    if (entities[0] === "keyword") {
      if (dims.includes("date")) {
        refuse(ctx, "unsupported_combination", "dimensions: keyword cannot be combined with date", ["dimensions"]);
        return;
      }
      const unsupported = q.metrics.filter((m) => !KEYWORD_METRICS.includes(m));
      if (unsupported.length > 0) {
        refuse(
          ctx,
          "unsupported_metric",
          `metrics: ${unsupported.join(", ")} not available for the keyword dimension (use ${KEYWORD_METRICS.join(", ")})`,
          ["metrics"],
        );
      }
    }
  })
  .transform((q): ReportQuery => {
    const dims = q.dimensions ?? [];
    const entity = dims.find(isEntityDimension);
    const byDate = dims.includes("date");
    return {
      from: q.from,
      to: q.to,
      metrics: q.metrics,
      dimensions: [...(entity ? [entity] : []), ...(byDate ? (["date"] as const) : [])],
      entity,
      byDate,
      granularity: q.granularity ?? DEFAULT_GRANULARITY,
      campaignId: q.campaign_id,
      adId: q.ad_id,
      page: q.page ?? 1,
      limit: Math.min(q.limit ?? DEFAULT_LIMIT, MAX_LIMIT),
    };
  });
