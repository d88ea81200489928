/** `GET /v1/report`: checks 3 and 4 of docs/service.md §3, then one page of the report. */
import type { FastifyReply, FastifyRequest } from "fastify";
import { GRANULARITY_WORDS, parseReportQuery, TOTAL_GRANULARITY_WORD } from "../../contract";
import type { ServeStore } from "../store/types";
import { sendError } from "./errors";

const JSON_TYPE = "application/json; charset=utf-8";
const DATA_END = Buffer.from("]}");

/**
 * The response as bytes, ready for the socket and the page cache (which then counts them exactly): rows
 * read already joined as UTF-8 are copied in, never decoded to strings and encoded again.
 */
function pageBody(meta: object, data: string[] | Buffer): Buffer {
  const head = Buffer.from(`{"meta":${JSON.stringify(meta)},"data":[`);
  const rows = Buffer.isBuffer(data) ? data : Buffer.from(data.join(","));
  // Its own memory, not a slice of Node's shared pool that a small cached page would keep alive.
  const body = Buffer.allocUnsafeSlow(head.length + rows.length + DATA_END.length);
  head.copy(body, 0);
  rows.copy(body, head.length);
  DATA_END.copy(body, head.length + rows.length);
  return body;
}

export function reportHandler(store: ServeStore) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const queryStart = request.url.indexOf("?");
    const queryString = queryStart < 0 ? "" : request.url.slice(queryStart + 1);
    const advertiserId = request.advertiserId;
    const parsed = parseReportQuery(new URLSearchParams(queryString));
    if (!parsed.ok) return sendError(reply, parsed.error.code, parsed.error.message, parsed.error.param);
    const query = parsed.query;
    const cached = await store.cachedPage(advertiserId, query);
    if (cached !== undefined) return reply.type(JSON_TYPE).send(cached);

    if (query.campaignId !== undefined && (await store.campaignAdvertiser(query.campaignId)) !== advertiserId) {
      return sendError(
        reply,
        "forbidden",
        `campaign_id ${query.campaignId} is not available to this key`,
        "campaign_id",
      );
    }
    if (query.adId !== undefined && (await store.adAdvertiser(query.adId)) !== advertiserId) {
      return sendError(reply, "forbidden", `ad_id ${query.adId} is not available to this key`, "ad_id");
    }

    // Both ids and an ad outside that campaign: the report's own filters leave no rows (and a zero total).
    const start = (query.page - 1) * query.limit;
    const report = await store.reportPage(query, advertiserId, start, query.limit);
    const data = report.rows;
    const meta = {
      granularity: query.byDate ? GRANULARITY_WORDS[query.granularity] : TOTAL_GRANULARITY_WORD,
      dimensions: query.dimensions,
      metrics: query.metrics,
      total: report.total,
      page: query.page,
      limit: query.limit,
      has_more: start + query.limit < report.total,
    };
    const body = pageBody(meta, data);
    store.rememberPage(advertiserId, query, body);
    return reply.type(JSON_TYPE).send(body);
  };
}
