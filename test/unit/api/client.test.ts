/** The HTTP client against a MockAgent: headers, retries and their waits, and what each status becomes. */
import { describe, expect, it } from "vitest";
import { ReportApi } from "../../../src/api/client";
import { AccessRefusedError } from "../../../src/api/errors";
import { AuthError, ForbiddenError, UnavailableError, UsageError } from "../../../src/core/errors";
import { KEY, mockAgent, ORIGIN, rowsOf, servePages } from "../../helpers/mock-api";

const PARAMS = { from: "2026-11-01", to: "2026-11-07", metrics: "views", page: "1", limit: "1000" };
const PAGE = JSON.stringify({
  meta: { granularity: "total", dimensions: [], metrics: ["views"], total: 1, page: 1, limit: 1000, has_more: false },
  data: [{ dimensions: {}, metrics: { views: 3 } }],
});

function client(
  mock: ReturnType<typeof mockAgent>,
  overrides: Partial<ConstructorParameters<typeof ReportApi>[0]> = {},
) {
  const waits: number[] = [];
  const api = new ReportApi({
    baseUrl: ORIGIN,
    apiKey: KEY,
    userAgent: "adreport/test",
    timeoutMs: 1000,
    retries: 3,
    dispatcher: mock.agent,
    sleep: async (ms) => {
      waits.push(ms);
    },
    random: () => 0.5,
    now: () => Date.parse("2026-11-21T12:00:00Z"),
    ...overrides,
  });
  return { api, waits };
}

function replyOnce(
  mock: ReturnType<typeof mockAgent>,
  status: number,
  body: string,
  headers: Record<string, string> = {},
) {
  mock.pool.intercept({ path: (p) => p.startsWith("/v1/report") }).reply((opts) => {
    mock.record(opts);
    return { statusCode: status, data: body, responseOptions: { headers } };
  });
}

describe("ReportApi", () => {
  it("sends the key as a bearer header, never in the URL, with its user agent", async () => {
    const mock = mockAgent();
    servePages(mock, rowsOf(1));
    await client(mock).api.getReportPage(PARAMS);
    const [request] = mock.seen;
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.headers["user-agent"]).toBe("adreport/test");
    expect(request?.path).toBe("/v1/report");
    expect(request?.params.toString()).not.toContain(KEY);
    mock.agent.assertNoPendingInterceptors();
  });

  it("keeps a base URL's path prefix", async () => {
    const mock = mockAgent();
    mock.pool.intercept({ path: (p) => p.startsWith("/api/v1/report") }).reply(200, PAGE);
    const page = await client(mock, { baseUrl: `${ORIGIN}/api/` }).api.getReportPage(PARAMS);
    expect(page.data).toHaveLength(1);
    mock.agent.assertNoPendingInterceptors();
  });

  it.each([500, 502, 503, 504])("retries %i with exponential backoff and full jitter", async (status) => {
    const mock = mockAgent();
    for (let i = 0; i < 3; i += 1) replyOnce(mock, status, "");
    replyOnce(mock, 200, PAGE);
    const { api, waits } = client(mock);
    expect((await api.getReportPage(PARAMS)).data).toHaveLength(1);
    expect(waits).toEqual([125, 250, 500]);
    mock.agent.assertNoPendingInterceptors();
  });

  it("honours Retry-After in seconds and as an HTTP date on 429", async () => {
    const mock = mockAgent();
    replyOnce(mock, 429, "", { "retry-after": "3" });
    replyOnce(mock, 429, "", { "retry-after": "Sat, 21 Nov 2026 12:00:07 GMT" });
    replyOnce(mock, 503, "", { "retry-after": "1" });
    replyOnce(mock, 200, PAGE);
    const { api, waits } = client(mock);
    await api.getReportPage(PARAMS);
    expect(waits).toEqual([3000, 7000, 1000]);
    mock.agent.assertNoPendingInterceptors();
  });

  it("gives up after the retries with exit 5 and the last reason", async () => {
    const mock = mockAgent();
    for (let i = 0; i < 4; i += 1)
      replyOnce(mock, 503, '{"error":{"status":503,"code":"x","message":"down for maintenance"}}');
    const error = await client(mock)
      .api.getReportPage(PARAMS)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnavailableError);
    expect((error as Error).message).toBe(
      "the service answered 503: down for maintenance (page 1: gave up after 4 attempts)",
    );
    expect((error as UnavailableError).exitCode).toBe(5);
    mock.agent.assertNoPendingInterceptors();
  });

  it("retries network failures and says what failed", async () => {
    const mock = mockAgent();
    for (let i = 0; i < 4; i += 1) {
      mock.pool
        .intercept({ path: (p) => p.startsWith("/v1/report") })
        .replyWithError(Object.assign(new Error("reset"), { code: "ECONNRESET" }));
    }
    const error = await client(mock)
      .api.getReportPage(PARAMS)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnavailableError);
    expect((error as Error).message).toContain(
      "cannot reach reports.test: the connection was closed before the whole answer came",
    );
    mock.agent.assertNoPendingInterceptors();
  });

  it("times out an answer that does not come, and retries it", async () => {
    const mock = mockAgent();
    // An answer far past any run of this test: only the client's timeout can end the first try.
    mock.pool
      .intercept({ path: (p) => p.startsWith("/v1/report") })
      .reply(200, PAGE)
      .delay(3_600_000);
    replyOnce(mock, 200, PAGE);
    const { api, waits } = client(mock, { timeoutMs: 100 });
    expect((await api.getReportPage(PARAMS)).data).toHaveLength(1);
    expect(waits).toHaveLength(1);
    mock.agent.assertNoPendingInterceptors();
  });

  it.each([
    [
      400,
      '{"error":{"status":400,"code":"range_too_long","message":"to: range is 120 days, at most 90","param":"to"}}',
      UsageError,
      2,
    ],
    [401, '{"error":{"status":401,"code":"invalid_key","message":"the API key is not valid"}}', AuthError, 3],
    [403, '{"error":{"status":403,"code":"ip_not_allowed","message":"not whitelisted"}}', ForbiddenError, 4],
    [403, '{"error":{"status":403,"code":"forbidden","message":"campaign 9"}}', ForbiddenError, 4],
    [404, "", UsageError, 2],
    [405, "", UnavailableError, 5],
  ])("never retries a %i, and maps it to its exit code", async (status, body, kind, exit) => {
    const mock = mockAgent();
    replyOnce(mock, status, body);
    const { api, waits } = client(mock);
    const error = await api.getReportPage(PARAMS).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(kind);
    expect((error as UsageError).exitCode).toBe(exit);
    expect(waits).toEqual([]);
    expect(mock.seen).toHaveLength(1);
    mock.agent.assertNoPendingInterceptors();
  });

  it("says which address an IP refusal names (the one the service saw)", async () => {
    const mock = mockAgent();
    replyOnce(
      mock,
      403,
      '{"error":{"status":403,"code":"ip_not_allowed","message":"requests from 198.51.100.7 are not on this key\'s IP whitelist"}}',
    );
    const error = (await client(mock)
      .api.getReportPage(PARAMS)
      .catch((e: unknown) => e)) as AccessRefusedError;
    expect(error).toBeInstanceOf(AccessRefusedError);
    expect(error.reason).toBe("address");
    expect(error.address).toBe("198.51.100.7");
    expect(error.message).toContain("198.51.100.7");
    mock.agent.assertNoPendingInterceptors();
  });

  it("reads error bodies of another shape, or none", async () => {
    const mock = mockAgent();
    replyOnce(mock, 401, "<html><body>Unauthorized</body></html>", { "content-type": "text/html" });
    replyOnce(mock, 403, "");
    replyOnce(mock, 400, '{"message":"bad from"}');
    const { api } = client(mock);
    expect(((await api.getReportPage(PARAMS).catch((e: unknown) => e)) as Error).message).toContain(
      "<html><body>Unauthorized</body></html>",
    );
    expect(((await api.getReportPage(PARAMS).catch((e: unknown) => e)) as Error).message).toContain("HTTP 403");
    expect(((await api.getReportPage(PARAMS).catch((e: unknown) => e)) as Error).message).toContain(
      '{"message":"bad from"}',
    );
    mock.agent.assertNoPendingInterceptors();
  });

  it("never repeats the key, even when a service echoes it", async () => {
    const mock = mockAgent();
    replyOnce(mock, 401, `{"error":{"status":401,"code":"invalid_key","message":"key ${KEY} is unknown"}}`);
    const error = (await client(mock)
      .api.getReportPage(PARAMS)
      .catch((e: unknown) => e)) as Error;
    expect(error.message).not.toContain(KEY);
    expect(error.message).toContain("key *** is unknown");
    mock.agent.assertNoPendingInterceptors();
  });

  it("refuses to follow a redirect with the key", async () => {
    const mock = mockAgent();
    replyOnce(mock, 301, "", { location: "https://elsewhere.test/v1/report" });
    const error = (await client(mock)
      .api.getReportPage(PARAMS)
      .catch((e: unknown) => e)) as UsageError;
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toContain("https://elsewhere.test/v1/report");
    expect(mock.seen).toHaveLength(1);
    mock.agent.assertNoPendingInterceptors();
  });

  it("asks again for a 200 whose body is not a report page, within the same budget", async () => {
    const mock = mockAgent();
    for (let i = 0; i < 4; i += 1) replyOnce(mock, 200, '{"meta":{},"data":[]}');
    for (let i = 0; i < 4; i += 1) replyOnce(mock, 200, "not json");
    const { api, waits } = client(mock);
    expect(((await api.getReportPage(PARAMS).catch((e: unknown) => e)) as Error).message).toMatch(
      /not a report page: meta\.granularity: .*\(page 1: gave up after 4 attempts\)/,
    );
    expect(((await api.getReportPage(PARAMS).catch((e: unknown) => e)) as Error).message).toMatch(/not JSON/);
    expect(mock.seen).toHaveLength(8);
    expect(waits).toEqual([125, 250, 500, 125, 250, 500]);
    mock.agent.assertNoPendingInterceptors();
  });

  it("reads a body as UTF-8, whether it is all ASCII or not", async () => {
    const mock = mockAgent();
    const named = (name: string) => {
      const body = JSON.parse(PAGE);
      body.data[0].dimensions = { name };
      return JSON.stringify(body);
    };
    replyOnce(mock, 200, named("Banner B, wide"));
    replyOnce(mock, 200, named("Café \u00e9 日本 🎯"));
    const { api } = client(mock);
    expect((await api.getReportPage(PARAMS)).data[0]?.dimensions.name).toBe("Banner B, wide");
    expect((await api.getReportPage(PARAMS)).data[0]?.dimensions.name).toBe("Café \u00e9 日本 🎯");
    mock.agent.assertNoPendingInterceptors();
  });
});

describe("rows of another shape", () => {
  it("names the first row that is not a row", async () => {
    const mock = mockAgent();
    const body = JSON.parse(PAGE);
    body.data.push({ dimensions: {}, metrics: { views: "3" } });
    for (let i = 0; i < 4; i += 1) replyOnce(mock, 200, JSON.stringify(body));
    const error = (await client(mock)
      .api.getReportPage(PARAMS)
      .catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error.message).toContain("not a report page: data.1: expected a row");
    mock.agent.assertNoPendingInterceptors();
  });
});
