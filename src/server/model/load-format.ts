/**
 * One line of the NDJSON load format (docs/service.md §8): one hour of one ad, or of one keyword.
 * Strict: an unknown or misspelt field is an error, never silently dropped data.
 */
import * as z from "zod";
import { parseInstant } from "../../contract";
import { formatDateTime, SECONDS_PER_HOUR } from "../../core/calendar";
import { AD_COUNTERS, type Counter, type Counts, KEYWORD_COUNTERS } from "./counters";
import type { AdFact, KeywordFact, LoadLine } from "./facts";

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const count = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
/**
 * A lone UTF-16 surrogate (JSON allows "\ud800") becomes U+FFFD, as PostgreSQL's driver makes it: SQLite
 * would keep its three bytes, which are not UTF-8, and serve them.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const name = z
  .string()
  .min(1)
  .max(1000)
  .transform((text) => text.replace(LONE_SURROGATE, "\uFFFD"));

const hour = z.string().transform((text, ctx) => {
  const instant = parseInstant(text, "from");
  if (!instant || text.length <= 10) {
    ctx.addIssue({ code: "custom", message: `${JSON.stringify(text)} is not an ISO 8601 date-time` });
    return z.NEVER;
  }
  if (instant.nano !== 0 || instant.sec % SECONDS_PER_HOUR !== 0 || instant.sec < 0) {
    ctx.addIssue({ code: "custom", message: `${JSON.stringify(text)} does not start an hour (UTC, 1970 or later)` });
    return z.NEVER;
  }
  return instant.sec;
});

const money = z
  .number()
  .nonnegative()
  .max(9e9)
  .transform((value, ctx) => {
    const micros = Math.round(value * 1e6);
    if (Math.abs(value * 1e6 - micros) > 1e-3) {
      ctx.addIssue({ code: "custom", message: `${value} has more than 6 decimals` });
      return z.NEVER;
    }
    return micros;
  });

const counterFields = (counters: readonly Counter[]) =>
  Object.fromEntries(counters.map((c) => [c.name, c.money ? money : count]));

/** The keyword counters every line has; an ad line adds the others after them. */
const ONLY_AD = AD_COUNTERS.filter((c) => !c.keyword);

const common = {
  advertiser: name,
  campaign_id: id,
  campaign: name,
  ad_id: id,
  ad: name,
  hour,
  ...counterFields(KEYWORD_COUNTERS),
};

type Parsed = Record<string, unknown> & { hour: number };

/** Each of the line's counters taken off another is at most that other (bot clicks within clicks). */
function withinDeducted<T extends z.ZodType<Record<string, unknown>>>(schema: T, counters: readonly Counter[]): T {
  let checked = schema;
  for (const c of counters) {
    const within = c.deducts;
    if (within === undefined) continue;
    checked = checked.refine((line) => (line[c.name] as number) <= (line[within] as number), {
      message: `${c.name} is more than ${within}`,
      path: [c.name],
    }) as unknown as T;
  }
  return checked;
}

const countsOf = (l: Parsed, counters: readonly Counter[]) =>
  Object.fromEntries(counters.map((c) => [c.name, l[c.name] as number]));

const entitiesOf = (l: Parsed) => ({
  advertiser: l.advertiser as string,
  campaignId: l.campaign_id as number,
  campaign: l.campaign as string,
  adId: l.ad_id as number,
  ad: l.ad as string,
});

const adLine = withinDeducted(z.strictObject({ ...common, ...counterFields(ONLY_AD) }), AD_COUNTERS).transform(
  (l): AdFact => ({
    ...entitiesOf(l as Parsed),
    hour: l.hour as number,
    counts: countsOf(l as Parsed, AD_COUNTERS) as Counts,
  }),
);

const keywordLine = withinDeducted(
  z.strictObject({ ...common, keyword_id: id, keyword: name }),
  KEYWORD_COUNTERS,
).transform(
  (l): KeywordFact => ({
    ...entitiesOf(l as Parsed),
    keywordId: l.keyword_id as number,
    keyword: l.keyword as string,
    hour: l.hour as number,
    counts: countsOf(l as Parsed, KEYWORD_COUNTERS),
  }),
);

/** Parses one line's JSON value; returns the fact or a message naming the field at fault. */
export function parseLoadLine(value: unknown): { ok: true; line: LoadLine } | { ok: false; message: string } {
  const isKeyword = typeof value === "object" && value !== null && "keyword_id" in value;
  const result = isKeyword ? keywordLine.safeParse(value) : adLine.safeParse(value);
  if (result.success) {
    return isKeyword
      ? { ok: true, line: { kind: "keyword", fact: result.data as KeywordFact } }
      : { ok: true, line: { kind: "ad", fact: result.data as AdFact } };
  }
  const issue = result.error.issues[0];
  if (issue?.code === "unrecognized_keys") {
    const adOnly = ONLY_AD.map((c) => c.name as string).filter((n) => issue.keys.includes(n));
    const hint = isKeyword && adOnly.length > 0 ? ` (keyword lines carry no ${adOnly.join(", ")})` : "";
    return { ok: false, message: `unknown field ${issue.keys.map((k) => JSON.stringify(k)).join(", ")}${hint}` };
  }
  const field = issue?.path.join(".") || "line";
  return { ok: false, message: `${field}: ${issue?.message ?? "invalid"}` };
}

/** The NDJSON line of a fact: the inverse of parseLoadLine. */
export function formatLoadLine(line: LoadLine): string {
  const f = line.fact;
  const counters = line.kind === "ad" ? [...KEYWORD_COUNTERS, ...ONLY_AD] : KEYWORD_COUNTERS;
  const counts = f.counts as Partial<Counts>;
  return JSON.stringify({
    advertiser: f.advertiser,
    campaign_id: f.campaignId,
    campaign: f.campaign,
    ad_id: f.adId,
    ad: f.ad,
    ...(line.kind === "keyword" ? { keyword_id: line.fact.keywordId, keyword: line.fact.keyword } : {}),
    hour: formatDateTime(f.hour),
    ...Object.fromEntries(counters.map((c) => [c.name, c.money ? (counts[c.name] ?? 0) / 1e6 : counts[c.name]])),
  });
}
