/**
 * The pacer in a ReportApi against a real token-bucket service on loopback (test/helpers/bucket-server.ts):
 * few answers 429 with the rate-limit fields or without them, the user's cap kept, and a Retry-After past
 * the deadline or a daily quota ended at once. Time ratios are bench/pace.ts's: this machine may be slow.
 */
import { afterAll, describe, expect, it } from "vitest";
import { ReportApi } from "../../../src/api/client";
import { Pacer } from "../../../src/api/pace";
import { openReport } from "../../../src/api/paginate";
import type { ReportRequest } from "../../../src/contract";
import { QuotaError } from "../../../src/core/errors";
import { type BucketServer, type BucketServerOptions, startBucketServer } from "../../helpers/bucket-server";

const KEY = `adr_${"q".repeat(43)}`;
const REQUEST: ReportRequest = { from: "2026-11-01", to: "2026-11-07", metrics: ["views"], dimensions: ["campaign"] };
const servers: BucketServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

async function exportAll(options: BucketServerOptions, pacer: Pacer | undefined, deadline?: number) {
  const server = await startBucketServer(options);
  servers.push(server);
  const api = new ReportApi({
    baseUrl: server.url,
    apiKey: KEY,
    userAgent: "adreport/test",
    timeoutMs: 10_000,
    retries: 10,
    pacer,
    deadline,
  });
  let rows = 0;
  try {
    const report = await openReport(api, REQUEST, { pageSize: 1, concurrency: 8 });
    for await (const page of report.pages) rows += page.rows.length;
  } finally {
    await api.close();
  }
  const throttled = server.arrivals.filter((a) => a.status === 429).length;
  return { rows, throttled, requests: server.arrivals.length, arrivals: server.arrivals.map((a) => a.at) };
}

describe("pacing against a token bucket", () => {
  it("with the rate-limit fields: 60 pages at concurrency 8, at most 2 answers 429", async () => {
    const pacer = new Pacer();
    const outcome = await exportAll({ rate: 100, burst: 10, headers: "ietf", rows: 60 }, pacer);
    expect(outcome.rows).toBe(60);
    expect(outcome.throttled).toBeLessThanOrEqual(2);
    expect(pacer.stats.throttled).toBe(outcome.throttled);
  });

  it("without them: at most 15% of the requests answered 429", async () => {
    // 50/s is less than this client sends unpaced even on a slow machine: the bucket runs dry.
    const outcome = await exportAll({ rate: 50, burst: 50, headers: "none", rows: 100 }, new Pacer());
    expect(outcome.rows).toBe(100);
    expect(outcome.throttled).toBeGreaterThan(0);
    expect(outcome.throttled / outcome.requests).toBeLessThanOrEqual(0.15);
  });

  it("never goes over the user's cap, however much the service allows", async () => {
    const outcome = await exportAll(
      { rate: 10_000, burst: 10_000, headers: "ietf", rows: 60 },
      new Pacer({ cap: { n: 50, per: "s" } }),
    );
    expect(outcome.throttled).toBe(0);
    const at = outcome.arrivals;
    // Granted 20 ms apart at least (pace.test.ts checks that exactly); on arrival, a request late on the
    // wire may close up to the next one.
    const most = Math.max(...at.map((t) => at.filter((u) => u >= t && u < t + 1000).length));
    expect(most).toBeLessThanOrEqual(51);
    expect((at.at(-1) as number) - (at[0] as number)).toBeGreaterThanOrEqual(59 * 20 * 0.9);
  });
});

describe("a wait longer than the run may", () => {
  it("a Retry-After past the deadline ends the export at once, saying how long the service asked for", async () => {
    const started = Date.now();
    const error = await exportAll(
      { rate: 0.001, burst: 1, headers: "none", rows: 2, retryAfter: { seconds: 120, code: "rate_limited" } },
      new Pacer(),
      Date.now() + 30_000,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotaError);
    expect((error as QuotaError).exitCode).toBe(5);
    expect((error as QuotaError).message).toMatch(
      /^the service answered 429: too many requests; slow down; the service asks to wait 120 s \(until .+ UTC\), longer than the 30 s left of the time allowed$/,
    );
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("so does a client without a pacer: the retries know the deadline too", async () => {
    const started = Date.now();
    const error = await exportAll(
      { rate: 0.001, burst: 1, headers: "none", rows: 2, retryAfter: { seconds: 60, code: "rate_limited" } },
      undefined,
      Date.now() + 10_000,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotaError);
    expect((error as QuotaError).message).toMatch(/asks to wait 60 s \(until .+ UTC\), longer than the 10 s left/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("a daily quota spent is said to be one, when the service's error code says so", async () => {
    const error = await exportAll(
      {
        rate: 0.001,
        burst: 1,
        headers: "none",
        rows: 2,
        retryAfter: { seconds: 1800, code: "daily_quota_exceeded" },
      },
      new Pacer(),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotaError);
    expect((error as QuotaError).daily).toBe(true);
    expect((error as QuotaError).message).toMatch(
      /^the daily quota is spent \(the service answered 429: .+\); the service asks to wait 30 min/,
    );
  });
});
