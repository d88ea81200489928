/** The page loop against a MockAgent: order, concurrency, a service's own page size, and completeness. */
import { describe, expect, it } from "vitest";
import { ReportApi } from "../../../src/api/client";
import { openReport } from "../../../src/api/paginate";
import { openSplitReport } from "../../../src/api/split";
import { type ReportRequest, type ReportRow, type RowPage, splitRange } from "../../../src/contract";
import { DataChangedError, UnavailableError } from "../../../src/core/errors";
import { type PageRequest, startFakeService } from "../../helpers/fake-service";
import { KEY, mockAgent, ORIGIN, type Row, rowsOf, servePages } from "../../helpers/mock-api";

const REQUEST: ReportRequest = {
  from: "2026-11-01",
  to: "2026-11-07",
  metrics: ["views", "clicks"],
  dimensions: ["campaign"],
};

function api(mock: ReturnType<typeof mockAgent>, retries = 0) {
  return new ReportApi({
    baseUrl: ORIGIN,
    apiKey: KEY,
    userAgent: "adreport/test",
    timeoutMs: 2000,
    retries,
    dispatcher: mock.agent,
    sleep: async () => undefined,
  });
}

async function collect(pages: AsyncIterable<RowPage>): Promise<ReportRow[]> {
  const all: ReportRow[] = [];
  for await (const page of pages) all.push(...page.rows);
  return all;
}

/**
 * A paged service on loopback that holds its answers to pages 2 and on until `expected` requests wait at
 * once, then answers them and every later one at once. A client that never has `expected` pages in flight
 * is answered 500 after a bounded wait, and the verdict says how many came.
 */
async function startGatedService(rows: readonly Row[], expected: number) {
  const held: Array<() => void> = [];
  let open = false;
  let verdict: string | undefined;
  let bound: NodeJS.Timeout | undefined;
  const release = () => {
    open = true;
    clearTimeout(bound);
    for (const answer of held.splice(0)) answer();
  };
  const hold = ({ page }: PageRequest) =>
    new Promise<void>((answer) => {
      if (page === 1 || open) {
        answer();
        return;
      }
      held.push(answer);
      if (held.length === 1) {
        bound = setTimeout(() => {
          verdict = `only ${held.length} of ${expected} requests came before the bounded wait ended`;
          release();
        }, 10_000);
      }
      if (held.length === expected) {
        verdict = `${expected} requests were waiting at once`;
        release();
      }
    });
  const service = await startFakeService({
    rows: rows.length,
    rowsOf: ({ page, limit }) => rows.slice((page - 1) * limit, page * limit),
    hold,
    fault: () => (verdict?.startsWith("only") ? "server-error" : undefined),
  });
  return {
    url: service.url,
    verdict: () => verdict,
    close: () => {
      clearTimeout(bound);
      return service.close();
    },
  };
}

describe("openReport", () => {
  it("yields every row of every page, in order, asking for each page once", async () => {
    const mock = mockAgent();
    const rows = rowsOf(95);
    servePages(mock, rows);
    const report = await openReport(api(mock), REQUEST, { pageSize: 10, concurrency: 3 });
    expect(await collect(report.pages)).toEqual(rows);
    expect(mock.seen.map((r) => r.params.get("page"))).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]);
    mock.agent.assertNoPendingInterceptors();
  });

  it("asks for at most `concurrency` pages ahead of the one being read", async () => {
    const mock = mockAgent();
    servePages(mock, rowsOf(95));
    const report = await openReport(api(mock), REQUEST, { pageSize: 10, concurrency: 3 });
    const pages = report.pages[Symbol.asyncIterator]();
    const asked: number[] = [];
    while (!(await pages.next()).done) asked.push(mock.seen.length);
    // Page n is being read: pages up to n + 3 (and no further than the 10th) have been asked for.
    expect(asked).toEqual([4, 5, 6, 7, 8, 9, 10, 10, 10, 10]);
    mock.agent.assertNoPendingInterceptors();
  });

  it("has `concurrency` pages in flight at once", async () => {
    const service = await startGatedService(rowsOf(95), 3);
    const client = new ReportApi({
      baseUrl: service.url,
      apiKey: KEY,
      userAgent: "adreport/test",
      timeoutMs: 30_000,
      retries: 0,
      sleep: async () => undefined,
    });
    try {
      const report = await openReport(client, REQUEST, { pageSize: 10, concurrency: 3 });
      const rows = await collect(report.pages).catch((e: unknown) => e);
      expect(service.verdict()).toBe("3 requests were waiting at once");
      expect(rows).toHaveLength(95);
    } finally {
      await service.close();
      await client.close();
    }
  });

  it("follows the page size the service applied when it is lower than asked", async () => {
    const mock = mockAgent();
    servePages(mock, rowsOf(50), { maxLimit: 7 });
    const report = await openReport(api(mock), REQUEST, { pageSize: 1000, concurrency: 4 });
    expect(await collect(report.pages)).toHaveLength(50);
    expect(mock.seen.slice(1).every((r) => r.params.get("limit") === "7")).toBe(true);
    expect(mock.seen).toHaveLength(8);
    mock.agent.assertNoPendingInterceptors();
  });

  it("keeps fields it does not know, in meta and in rows", async () => {
    const mock = mockAgent();
    const rows: Row[] = rowsOf(3).map((r) => ({
      ...r,
      currency: "EUR",
      dimensions: { ...r.dimensions, region: "EU" },
    }));
    servePages(mock, rows, { extraMeta: { generated_at: "2026-11-21T00:00:00Z", granularity: "fortnightly" } });
    const report = await openReport(api(mock), REQUEST, { pageSize: 1000, concurrency: 4 });
    expect(report.meta).toMatchObject({ generated_at: "2026-11-21T00:00:00Z", granularity: "fortnightly" });
    expect(await collect(report.pages)).toEqual(rows);
    mock.agent.assertNoPendingInterceptors();
  });

  it.each([
    ["the total changes between pages", { total: (page: number) => (page < 3 ? 25 : 26) }],
    ["has_more says no before the total is reached", { hasMore: (page: number) => page < 2 }],
    ["has_more says yes after the total is reached", { hasMore: () => true }],
  ])("fails with exit 5 when %s", async (_label, knobs) => {
    const mock = mockAgent();
    servePages(mock, rowsOf(25), { maxLimit: 10, ...knobs });
    const report = await openReport(api(mock), REQUEST, { pageSize: 10, concurrency: 2 });
    const error = await collect(report.pages).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataChangedError);
    expect((error as DataChangedError).exitCode).toBe(5);
    mock.agent.assertNoPendingInterceptors();
  });

  it("does not loop on an empty page that says more follow", async () => {
    const mock = mockAgent();
    servePages(mock, [], { hasMore: () => true, total: () => 0 });
    const report = await openReport(api(mock), REQUEST, { pageSize: 10, concurrency: 2 });
    await expect(collect(report.pages)).rejects.toBeInstanceOf(DataChangedError);
    mock.agent.assertNoPendingInterceptors();
  });

  it.each([
    ["serves page 1 whatever page is asked for", { pageOf: () => 1 }],
    [
      "repeats the previous page under the page number asked for",
      { pageOf: (asked: number) => asked, rowsOf: () => 1 },
    ],
    ["sends pages short of the limit that say more follow", { short: true }],
    ["says has_more forever with a total of 10^12, one distinct row a page", { short: true, distinct: true }],
  ])("ends with exit 5 after a few requests, not a loop, when the service %s", async (_label, knobs) => {
    const mock = mockAgent();
    let requests = 0;
    mock.pool
      .intercept({ path: (p) => p.startsWith("/v1/report") })
      .reply((opts) => {
        requests += 1;
        const asked = Number(mock.record(opts).params.get("page"));
        const page = "pageOf" in knobs ? knobs.pageOf(asked) : asked;
        const from = "rowsOf" in knobs ? knobs.rowsOf() : (page - 1) * 10 + 1;
        const count = "short" in knobs ? 1 : 10;
        return {
          statusCode: 200,
          data: JSON.stringify({
            meta: {
              granularity: "total",
              dimensions: [],
              metrics: ["views"],
              total: 1e12,
              page,
              limit: 10,
              has_more: true,
            },
            data: Array.from({ length: count }, (_, i) => ({
              dimensions: { campaign_id: from + i },
              metrics: { views: 1 },
            })),
          }),
        };
      })
      .persist();
    const report = await openReport(api(mock), REQUEST, { pageSize: 10, concurrency: 4 });
    const error = await collect(report.pages).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataChangedError);
    expect(requests).toBeLessThanOrEqual(6); // page 1, then at most page 2 and the 4 asked for ahead
    mock.agent.assertNoPendingInterceptors();
  });

  it("never asks for a page past ceil(total / limit), even when the last says more follow", async () => {
    const mock = mockAgent();
    servePages(mock, rowsOf(25), { maxLimit: 10, hasMore: () => true });
    const report = await openReport(api(mock), REQUEST, { pageSize: 10, concurrency: 4 });
    const error = await collect(report.pages).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataChangedError);
    expect((error as Error).message).toContain("page 3 says more follow, but the 25 rows announced fit in 3 pages");
    expect(mock.seen.map((r) => r.params.get("page"))).toEqual(["1", "2", "3"]);
    mock.agent.assertNoPendingInterceptors();
  });

  it("trusts has_more over a total that is off, then checks the count", async () => {
    const mock = mockAgent();
    servePages(mock, rowsOf(30), { maxLimit: 10, total: () => 30, hasMore: (page) => page < 3 });
    const report = await openReport(api(mock), REQUEST, { pageSize: 10, concurrency: 1 });
    expect(await collect(report.pages)).toHaveLength(30);
    mock.agent.assertNoPendingInterceptors();
  });

  it("stops at the first page that fails for good", async () => {
    const mock = mockAgent();
    const rows = rowsOf(100);
    mock.pool
      .intercept({ path: (p) => p.startsWith("/v1/report") })
      .reply((opts) => {
        const page = Number(mock.record(opts).params.get("page"));
        if (page === 4) return { statusCode: 500, data: "" };
        return {
          statusCode: 200,
          data: JSON.stringify({
            meta: {
              granularity: "total",
              dimensions: [],
              metrics: ["views"],
              total: 100,
              page,
              limit: 10,
              has_more: page < 10,
            },
            data: rows.slice((page - 1) * 10, page * 10),
          }),
        };
      })
      .persist();
    const report = await openReport(api(mock), REQUEST, { pageSize: 10, concurrency: 2 });
    const got: ReportRow[] = [];
    const error = await (async () => {
      for await (const page of report.pages) got.push(...page.rows);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnavailableError);
    expect(got).toHaveLength(30);
    mock.agent.assertNoPendingInterceptors();
  });
});

/** One page per window: the rows of the window starting at `from`, under a weekly meta. */
function serveWindows(
  mock: ReturnType<typeof mockAgent>,
  byWindow: Record<string, Row[]>,
  meta: { dimensions: string[]; metrics: string[] },
): void {
  mock.pool
    .intercept({ path: (p) => p.startsWith("/v1/report") })
    .reply((opts) => {
      const data = byWindow[mock.record(opts).params.get("from") ?? ""] ?? [];
      return {
        statusCode: 200,
        data: JSON.stringify({
          meta: { granularity: "weekly", ...meta, total: data.length, page: 1, limit: 1000, has_more: false },
          data,
        }),
      };
    })
    .persist();
}

describe("splitRange", () => {
  it("cuts a range into windows of at most 90 x 24 h, edge to edge", () => {
    expect(splitRange("2026-01-01", "2026-07-19")).toEqual([
      { from: "2026-01-01T00:00:00Z", to: "2026-03-31T23:59:59Z" },
      { from: "2026-04-01T00:00:00Z", to: "2026-06-29T23:59:59Z" },
      { from: "2026-06-30T00:00:00Z", to: "2026-07-19T23:59:59Z" },
    ]);
    expect(splitRange("2026-01-01T12:00:00.5+02:00", "2026-01-02")).toEqual([
      { from: "2026-01-01T10:00:01Z", to: "2026-01-02T23:59:59Z" },
    ]);
  });
});

describe("openSplitReport", () => {
  it("merges windows in entity-then-date order and sums the rows a boundary cut in two", async () => {
    const mock = mockAgent();
    const windows = [
      { from: "2026-01-01T00:00:00Z", to: "2026-03-31T23:59:59Z" },
      { from: "2026-04-01T00:00:00Z", to: "2026-04-30T23:59:59Z" },
    ];
    const march30 = Date.UTC(2026, 2, 30) / 1000; // a Monday: this week spans both windows
    const byWindow: Record<string, Row[]> = {
      "2026-01-01T00:00:00Z": [
        { dimensions: { campaign_id: 1, name: "A", date: march30 - 7 * 86_400 }, metrics: { views: 1, spending: 0.1 } },
        { dimensions: { campaign_id: 1, name: "A", date: march30 }, metrics: { views: 2, spending: 0.2 } },
        { dimensions: { campaign_id: 2, name: "B", date: march30 }, metrics: { views: 3, spending: 0.3 } },
      ],
      "2026-04-01T00:00:00Z": [
        { dimensions: { campaign_id: 1, name: "A", date: march30 }, metrics: { views: 10, spending: 0.1 } },
        {
          dimensions: { campaign_id: 1, name: "A", date: march30 + 7 * 86_400 },
          metrics: { views: 20, spending: 0.2 },
        },
        { dimensions: { campaign_id: 3, name: "C", date: march30 }, metrics: { views: 30, spending: 0.3 } },
      ],
    };
    serveWindows(mock, byWindow, { dimensions: ["campaign", "date"], metrics: ["views", "spending"] });
    const report = await openSplitReport(api(mock), { ...REQUEST, dimensions: ["campaign", "date"] }, windows, {
      pageSize: 1000,
      concurrency: 4,
    });
    expect(report.totalKnown).toBe(false);
    expect(
      (await collect(report.pages)).map((r) => [
        r.dimensions.campaign_id,
        r.dimensions.date,
        r.metrics.views,
        r.metrics.spending,
      ]),
    ).toEqual([
      [1, march30 - 7 * 86_400, 1, 0.1],
      [1, march30, 12, 0.3],
      [1, march30 + 7 * 86_400, 20, 0.2],
      [2, march30, 3, 0.3],
      [3, march30, 30, 0.3],
    ]);
    mock.agent.assertNoPendingInterceptors();
  });
});

describe("openSplitReport with a service that writes dates as text", () => {
  it("still merges in order and sums equal rows", async () => {
    const mock = mockAgent();
    const windows = [
      { from: "2026-01-01T00:00:00Z", to: "2026-03-31T23:59:59Z" },
      { from: "2026-04-01T00:00:00Z", to: "2026-04-30T23:59:59Z" },
    ];
    const byWindow: Record<string, Row[]> = {
      "2026-01-01T00:00:00Z": [
        { dimensions: { date: "2026-03-23" }, metrics: { views: 1 } },
        { dimensions: { date: "2026-03-30" }, metrics: { views: 2 } },
      ],
      "2026-04-01T00:00:00Z": [
        { dimensions: { date: "2026-03-30" }, metrics: { views: 10 } },
        { dimensions: { date: "2026-04-06" }, metrics: { views: 20 } },
      ],
    };
    serveWindows(mock, byWindow, { dimensions: ["date"], metrics: ["views"] });
    const report = await openSplitReport(api(mock), { ...REQUEST, dimensions: ["date"] }, windows, {
      pageSize: 1000,
      concurrency: 2,
    });
    expect((await collect(report.pages)).map((r) => [r.dimensions.date, r.metrics.views])).toEqual([
      ["2026-03-23", 1],
      ["2026-03-30", 12],
      ["2026-04-06", 20],
    ]);
    mock.agent.assertNoPendingInterceptors();
  });
});
