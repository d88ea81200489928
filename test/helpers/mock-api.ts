/**
 * The reporting API at the network edge, as an undici MockAgent: strict (unmatched requests fail, no real
 * network), and recording what the client sent. Call it inside a test: the agent closes when that test ends.
 */
import { MockAgent } from "undici";
import { onTestFinished } from "vitest";

export const ORIGIN = "http://reports.test";
export const KEY = `adr_${"k".repeat(43)}`;

export interface SeenRequest {
  path: string;
  params: URLSearchParams;
  headers: Record<string, string>;
}

export function mockAgent() {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const pool = agent.get(ORIGIN);
  const seen: SeenRequest[] = [];
  onTestFinished(async () => {
    await agent.close();
  });
  const record = (opts: { path: string; headers?: unknown }): SeenRequest => {
    const url = new URL(opts.path, ORIGIN);
    const headers: Record<string, string> = {};
    const raw = opts.headers as Record<string, string> | undefined;
    for (const [name, value] of Object.entries(raw ?? {})) headers[name.toLowerCase()] = String(value);
    const request = { path: url.pathname, params: url.searchParams, headers };
    seen.push(request);
    return request;
  };
  return { agent, pool, seen, record };
}

export interface Row {
  dimensions: Record<string, unknown>;
  metrics: Record<string, number>;
  [extra: string]: unknown;
}

export function rowsOf(count: number): Row[] {
  return Array.from({ length: count }, (_, i) => ({
    dimensions: { campaign_id: i + 1, name: `Campaign ${i + 1}` },
    metrics: { views: i * 10, clicks: i },
  }));
}

/** A paged service over `rows`, with knobs for the ways a real one may differ from ours. */
export function servePages(
  mock: ReturnType<typeof mockAgent>,
  rows: readonly Row[],
  knobs: {
    maxLimit?: number;
    total?: (page: number) => number;
    hasMore?: (page: number, computed: boolean) => boolean;
    extraMeta?: Record<string, unknown>;
  } = {},
) {
  mock.pool
    .intercept({ path: (p) => p.startsWith("/v1/report"), method: "GET" })
    .reply((opts) => {
      const request = mock.record(opts);
      const page = Number(request.params.get("page") ?? 1);
      const limit = Math.min(Number(request.params.get("limit") ?? 100), knobs.maxLimit ?? 1000);
      const data = rows.slice((page - 1) * limit, page * limit);
      const computedMore = page * limit < rows.length;
      return {
        statusCode: 200,
        data: JSON.stringify({
          meta: {
            granularity: "total",
            dimensions: ["campaign"],
            metrics: ["views", "clicks"],
            total: knobs.total ? knobs.total(page) : rows.length,
            page,
            limit,
            has_more: knobs.hasMore ? knobs.hasMore(page, computedMore) : computedMore,
            ...knobs.extraMeta,
          },
          data,
        }),
        responseOptions: { headers: { "content-type": "application/json" } },
      };
    })
    .persist();
}
