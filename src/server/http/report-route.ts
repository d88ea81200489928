/** `GET /v1/report`: checks 3 and 4 of contract.md A2, then one page of the report. */
import type { FastifyReply, FastifyRequest } from "fastify";
import { GRANULARITY_WORDS, parseReportQuery, type ReportQuery, TOTAL_GRANULARITY_WORD } from "../../contract";
import type { ReportResult, ReportStore } from "../db/store";
import { rowJson } from "../report/rows";
import { sendError } from "./errors";

const JSON_TYPE = "application/json; charset=utf-8";
const ZERO_ROW = { eid: 0, bucket: 0, views: 0, clicks: 0, conversions: 0, spending: 0 };

export function reportHandler(store: ReportStore) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const queryStart = request.url.indexOf("?");
    const queryString = queryStart < 0 ? "" : request.url.slice(queryStart + 1);
    const advertiserId = request.advertiserId;
    const cached = store.cachedPage(advertiserId, queryString);
    if (cached !== undefined) return reply.type(JSON_TYPE).send(cached);

    const parsed = parseReportQuery(new URLSearchParams(queryString));
    if (!parsed.ok) return sendError(reply, parsed.error.code, parsed.error.message, parsed.error.param);
    const query = parsed.query;

    if (query.campaignId !== undefined && store.campaignAdvertiser(query.campaignId) !== advertiserId) {
      return sendError(
        reply,
        "forbidden",
        `campaign_id ${query.campaignId} is not available to this key`,
        "campaign_id",
      );
    }
    let adOutsideCampaign = false;
    if (query.adId !== undefined) {
      const owner = store.adOwner(query.adId);
      if (owner?.advertiserId !== advertiserId) {
        return sendError(reply, "forbidden", `ad_id ${query.adId} is not available to this key`, "ad_id");
      }
      adOutsideCampaign = query.campaignId !== undefined && owner.campaignId !== query.campaignId;
    }

    const report = adOutsideCampaign ? noRows(query) : store.report(query, advertiserId);
    const start = (query.page - 1) * query.limit;
    const data = start < report.total ? report.rows(query, start, query.limit) : [];
    const meta = {
      granularity: query.byDate ? GRANULARITY_WORDS[query.granularity] : TOTAL_GRANULARITY_WORD,
      dimensions: query.dimensions,
      metrics: query.metrics,
      total: report.total,
      page: query.page,
      limit: query.limit,
      has_more: start + query.limit < report.total,
    };
    const body = `{"meta":${JSON.stringify(meta)},"data":[${data.join(",")}]}`;
    store.rememberPage(advertiserId, queryString, body);
    return reply.type(JSON_TYPE).send(body);
  };
}

/** An ad outside the named campaign: no rows, but the grand total still has its one row of zeros. */
function noRows(query: ReportQuery): ReportResult {
  const rows = query.entity || query.byDate ? [] : [rowJson(query, ZERO_ROW)];
  return { total: rows.length, rows: (_q, start, count) => rows.slice(start, start + count) };
}
