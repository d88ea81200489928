/**
 * One line of the NDJSON load format (docs/service.md §8): one hour of one ad, or of one keyword.
 * Strict: an unknown or misspelt field is an error, never silently dropped data.
 */
import * as z from "zod";
import { parseInstant } from "../../contract";
import { formatDateTime, SECONDS_PER_HOUR } from "../../core/calendar";
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

const spending = z
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

const common = {
  advertiser: name,
  campaign_id: id,
  campaign: name,
  ad_id: id,
  ad: name,
  hour,
  views: count,
  clicks: count,
  bot_clicks: count,
  spending,
};

const botClicksWithinClicks = (line: { clicks: number; bot_clicks: number }) => line.bot_clicks <= line.clicks;
const botClicksMessage = { message: "bot_clicks is more than clicks", path: ["bot_clicks"] };

const adLine = z
  .strictObject({ ...common, conversions: count })
  .refine(botClicksWithinClicks, botClicksMessage)
  .transform(
    (l): AdFact => ({
      advertiser: l.advertiser,
      campaignId: l.campaign_id,
      campaign: l.campaign,
      adId: l.ad_id,
      ad: l.ad,
      hour: l.hour,
      views: l.views,
      clicks: l.clicks,
      botClicks: l.bot_clicks,
      conversions: l.conversions,
      spendingMicros: l.spending,
    }),
  );

const keywordLine = z
  .strictObject({ ...common, keyword_id: id, keyword: name })
  .refine(botClicksWithinClicks, botClicksMessage)
  .transform(
    (l): KeywordFact => ({
      advertiser: l.advertiser,
      campaignId: l.campaign_id,
      campaign: l.campaign,
      adId: l.ad_id,
      ad: l.ad,
      keywordId: l.keyword_id,
      keyword: l.keyword,
      hour: l.hour,
      views: l.views,
      clicks: l.clicks,
      botClicks: l.bot_clicks,
      spendingMicros: l.spending,
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
    const hint = isKeyword && issue.keys.includes("conversions") ? " (keyword lines carry no conversions)" : "";
    return { ok: false, message: `unknown field ${issue.keys.map((k) => JSON.stringify(k)).join(", ")}${hint}` };
  }
  const field = issue?.path.join(".") || "line";
  return { ok: false, message: `${field}: ${issue?.message ?? "invalid"}` };
}

/** The NDJSON line of a fact: the inverse of parseLoadLine. */
export function formatLoadLine(line: LoadLine): string {
  const f = line.fact;
  const base = {
    advertiser: f.advertiser,
    campaign_id: f.campaignId,
    campaign: f.campaign,
    ad_id: f.adId,
    ad: f.ad,
    ...(line.kind === "keyword" ? { keyword_id: line.fact.keywordId, keyword: line.fact.keyword } : {}),
    hour: formatDateTime(f.hour),
    views: f.views,
    clicks: f.clicks,
    bot_clicks: f.botClicks,
    spending: f.spendingMicros / 1e6,
  };
  return JSON.stringify(line.kind === "ad" ? { ...base, conversions: line.fact.conversions } : base);
}
