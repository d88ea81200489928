/**
 * The rules of the query of `GET /v1/report` (docs/service.md §2) as one zod schema, declared once: the
 * server parses requests with it and the client checks what it is about to send with it, so both refuse
 * exactly the same things. Each refusal carries its error code (docs/service.md §5); query.ts turns the
 * first one into a RequestRuleError.
 */
import * as z from "zod";
import {
  DEFAULT_GRANULARITY,
  DEFAULT_LIMIT,
  DIMENSIONS,
  type Dimension,
  ENTITY_DIMENSIONS,
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
import { MAX_WHOLE, positiveInteger } from "./positive-integer";
import { quote, refuse } from "./refusal";
import {
  BARE_DATE,
  compareInstants,
  DATE_TIME,
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

/** A regular expression matching any of `words`, whole. */
function oneOf(words: readonly string[]): string {
  return `(${words.join("|")})`;
}

function nameList<T extends string>(param: string, names: readonly T[], description: string) {
  const name = oneOf(names);
  return z
    .string()
    .meta({ description: `${description} No name twice.`, pattern: `^${name}(,${name})*$` })
    .transform((text, ctx): T[] => {
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

function instant(role: "from" | "to", description: string) {
  return z
    .string()
    .meta({
      description: `${description} An ISO 8601 date-time with Z or an offset (2026-11-01T09:00:00+09:00), or a date alone (2026-11-01: ${role === "from" ? "the start of that UTC day" : "its last second, 23:59:59Z"}).`,
      pattern: `${BARE_DATE.source}|${DATE_TIME.source}`,
    })
    .transform((text, ctx): Instant => {
      const parsed = parseInstant(text, role);
      if (parsed) return parsed;
      return refuse(
        ctx,
        "invalid_parameter",
        `${role}: ${quote(text)} is not an ISO 8601 date-time with Z or an offset (2026-11-01T00:00:00Z) or a date (2026-11-01)`,
      );
    });
}

/** A Map, not an object: `granularity=__proto__` or `constructor` must find nothing. */
const GRANULARITY_ALIASES = new Map<string, Granularity>(
  GRANULARITIES.flatMap((g) => [
    [g, g],
    [GRANULARITY_WORDS[g], g],
  ]),
);

/** `hour` as `[hH][oO][uU][rR]`: JSON Schema patterns have no flag for case. */
const anyCase = (word: string) => [...word].map((c) => `[${c.toLowerCase()}${c.toUpperCase()}]`).join("");

const granularity = z
  .string()
  .meta({
    description: `The size of the date buckets, in any case; default ${DEFAULT_GRANULARITY}. Without date in dimensions it has no effect, but an unknown word is still refused.`,
    pattern: `^${oneOf([...GRANULARITY_ALIASES.keys()].map(anyCase))}$`,
  })
  .transform((text, ctx): Granularity => {
    const found = GRANULARITY_ALIASES.get(text.toLowerCase());
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
