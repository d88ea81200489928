import type { ReportQuery } from "../../contract";

/**
 * One string for everything that decides a page's body, taken from the parsed query rather than the query
 * string: `page=0002` and `page=2`, or `from=2026-10-01` and `from=2026-10-01T00:00:00Z`, are one entry, and
 * nothing a caller adds to the query string (padding, parameters the parser refuses) can make a new one.
 */
export function canonicalQueryKey(query: ReportQuery): string {
  return JSON.stringify([
    query.from.sec,
    query.from.nano,
    query.to.sec,
    query.to.nano,
    query.metrics,
    query.dimensions,
    query.byDate ? query.granularity : null,
    query.campaignId ?? null,
    query.adId ?? null,
    query.page,
    query.limit,
  ]);
}
