/**
 * The rules of the query of `GET /v1/report` (docs/service.md §2) as one zod schema, declared once: the
 * server parses requests with it and the client checks what it is about to send with it, so both refuse
 * exactly the same things. Each refusal carries its error code (docs/service.md §5); query.ts turns the
 * first one into a RequestRuleError.
 */
import * as z from "zod";
import type { RequestErrorCode } from "./errors";
import {
  DEFAULT_GRANULARITY,
  DEFAULT_LIMIT,
  DIMENSIONS,
  type Dimension,
  type EntityDimension,
  GRANULARITIES,
  GRANULARITY_WORDS,
  type Granularity,
  isEntityDimension,
  KEYWORD_METRICS,
  MAX_LIMIT,
  MAX_RANGE_SECONDS,
  METRICS,
  type Metric,
} from "./fields";
import {
  compareInstants,
  formatDateTime,
  type Instant,
  parseInstant,
  SECONDS_PER_DAY,
  secondsBetween,
  spanExceeds,
} from "./time";

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

type Ctx = z.RefinementCtx;

function refuse(ctx: Ctx, code: RequestErrorCode, message: string, path?: string[]): typeof z.NEVER {
  ctx.addIssue({ code: "custom", message, params: { code }, ...(path ? { path } : {}) });
  return z.NEVER;
}

/** Quotes a caller's text in a message, cut short so a hostile value cannot flood a log line. */
export function quote(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

function nameList<T extends string>(param: string, names: readonly T[]) {
  return z.string().transform((text, ctx): T[] => {
    const picked: T[] = [];
    for (const item of text.split(",")) {
      if (item === "") return refuse(ctx, "invalid_parameter", `${param}: empty item in ${quote(text)}`);
      if (!(names as readonly string[]).includes(item)) {
        return refuse(ctx, "invalid_parameter", `${param}: unknown name ${quote(item)}; use ${names.join(", ")}`);
      }
      if (picked.includes(item as T)) return refuse(ctx, "invalid_parameter", `${param}: ${quote(item)} given twice`);
      picked.push(item as T);
    }
    return picked;
  });
}

function instant(role: "from" | "to") {
  return z.string().transform((text, ctx): Instant => {
    const parsed = parseInstant(text, role);
    if (parsed) return parsed;
    return refuse(
      ctx,
      "invalid_parameter",
      `${role}: ${quote(text)} is not an ISO 8601 date-time with Z or an offset (2026-11-01T00:00:00Z) or a date (2026-11-01)`,
    );
  });
}

const DIGITS = /^\d+$/;

function positiveInteger(param: string, what: string) {
  return z.string().transform((text, ctx): number => {
    const value = DIGITS.test(text) ? Number(text) : Number.NaN;
    if (value >= 1) return Math.min(value, Number.MAX_SAFE_INTEGER);
    return refuse(ctx, "invalid_parameter", `${param}: ${quote(text)} is not ${what}`);
  });
}

const GRANULARITY_ALIASES: Record<string, Granularity> = Object.fromEntries(
  GRANULARITIES.flatMap((g) => [
    [g, g],
    [GRANULARITY_WORDS[g], g],
  ]),
);

const granularity = z.string().transform((text, ctx): Granularity => {
  const found = GRANULARITY_ALIASES[text.toLowerCase()];
  if (found) return found;
  return refuse(ctx, "invalid_parameter", `granularity: ${quote(text)} is not one of hour, day, week, month`);
});

function describeSpan(seconds: number): string {
  const days = Math.floor(seconds / SECONDS_PER_DAY);
  const rest = seconds - days * SECONDS_PER_DAY;
  if (rest === 0) return `${days} days`;
  const h = Math.floor(rest / 3600);
  const m = Math.floor((rest % 3600) / 60);
  const s = Math.round((rest % 60) * 1e9) / 1e9;
  return `${days} days ${h}h ${m}m ${s}s`;
}

export const reportQuerySchema = z
  .strictObject({
    from: instant("from"),
    to: instant("to"),
    metrics: nameList("metrics", METRICS),
    dimensions: nameList("dimensions", DIMENSIONS).optional(),
    granularity: granularity.optional(),
    campaign_id: positiveInteger("campaign_id", "a positive integer id").optional(),
    ad_id: positiveInteger("ad_id", "a positive integer id").optional(),
    page: positiveInteger("page", "an integer >= 1").optional(),
    limit: positiveInteger("limit", "an integer >= 1").optional(),
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
