/**
 * bench/rate-service.ts, the independent rate-limited service of the pacing benchmark: its pages pass the
 * OpenAPI document and `adreport report` exports them whole; its GCRA limit answers 429 past the burst with
 * an HTTP-date Retry-After (or seconds), lets requests in again as its injected clock moves, and sends the
 * RateLimit fields only when asked.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type RateService, type RateServiceOptions, startRateService } from "../../bench/rate-service";
import { openApiDocument } from "../../src/contract";
import { httpGet } from "../helpers/http";
import { openApiChecker } from "../helpers/openapi-check";
import { runInProcess } from "../helpers/run-cli-in-process";
import { tempDir } from "../helpers/temp";

const KEY = `adr_${"r".repeat(43)}`;
const QUERY =
  "/v1/report?from=2026-10-01&to=2026-10-03&metrics=views,clicks,spending&dimensions=ad,date&granularity=hour&limit=50";
const started: RateService[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((service) => service.close()));
});

async function service(options: RateServiceOptions) {
  const clock = { ms: 0 };
  const running = await startRateService({ nowMs: () => clock.ms, ...options });
  started.push(running);
  return { clock, running, get: (query = QUERY) => httpGet(running.url + query, { key: KEY }) };
}

describe("bench/rate-service", () => {
  it("serves pages the OpenAPI document accepts, and report exports them whole", async () => {
    const { running, get } = await service({ rate: 1000, entities: 4 });
    const checker = await openApiChecker(openApiDocument());
    const first = await get();
    expect(first.status).toBe(200);
    expect(checker.problems("GET", "/v1/report", first)).toEqual([]);
    expect(first.json).toMatchObject({ meta: { total: 4 * 3 * 24, has_more: true, granularity: "hourly" } });
    const result = await runInProcess(
      [
        "report",
        "--from",
        "2026-10-01",
        "--to",
        "2026-10-03",
        "--dims",
        "ad,date",
        "--granularity",
        "hour",
        "-f",
        "ndjson",
        "--page-size",
        "50",
      ],
      {
        env: { ADREPORT_CONFIG_DIR: join(tempDir(), "config"), ADREPORT_API_KEY: KEY, ADREPORT_BASE_URL: running.url },
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim().split("\n")).toHaveLength(4 * 3 * 24);
    expect(running.counts.throttled).toBe(0);
  });

  it("answers 429 past the burst with an HTTP date, and lets the key in once the clock moves", async () => {
    const { clock, running, get } = await service({ rate: 4, burst: 2 });
    expect((await get()).status).toBe(200);
    expect((await get()).status).toBe(200);
    const refused = await get();
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ error: { status: 429, code: "rate_limited" } });
    const date = Date.parse(String(refused.headers["retry-after"]));
    expect(date).toBeGreaterThan(Date.now() - 1000);
    expect(date).toBeLessThanOrEqual(Date.now() + 2000);
    expect(refused.headers.ratelimit).toBeUndefined();
    clock.ms += 250;
    expect((await get()).status).toBe(200);
    expect(running.counts).toEqual({ requests: 4, ok: 3, throttled: 1, other: 0 });
  });

  it("with headers and seconds: the gcra policy, the requests left and Retry-After in seconds", async () => {
    const { get } = await service({ rate: 0.5, burst: 3, headers: true, retryAfter: "seconds" });
    const ok = await get();
    expect(ok.headers["ratelimit-policy"]).toBe('"gcra";q=3;w=6');
    expect(ok.headers.ratelimit).toBe('"gcra";r=2;t=2');
    await get();
    await get();
    const refused = await get();
    expect(refused.status).toBe(429);
    expect(refused.headers["retry-after"]).toBe("2");
    expect(refused.headers.ratelimit).toBe('"gcra";r=0;t=6');
  });
});
