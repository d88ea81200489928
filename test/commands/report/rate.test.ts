/**
 * `report` keeps the service's pace: a service of another make than `serve` with a token bucket per key, run
 * in-process. Counts, never times, decide (the machine may be slow): answers 429 counted in --summary, the
 * --rate cap's spacing, a Retry-After past --max-time ending the run at once, the ledger shared through the
 * state folder.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type BucketServer, startBucketServer } from "../../helpers/bucket-server";
import { runInProcess } from "../../helpers/run-cli-in-process";
import { tempDir } from "../../helpers/temp";

const KEY = `adr_${"r".repeat(43)}`;
let server: BucketServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function report(url: string, extra: string[], config = tempDir()) {
  const summary = join(tempDir(), "summary.json");
  const result = await runInProcess(
    [
      "report",
      "-q",
      "--dims",
      "campaign",
      "--format",
      "ndjson",
      "--page-size",
      "10",
      "--summary-file",
      summary,
      ...extra,
    ],
    { env: { ADREPORT_CONFIG_DIR: config, ADREPORT_API_KEY: KEY, ADREPORT_BASE_URL: url } },
  );
  const read = () => JSON.parse(readFileSync(summary, "utf8")) as Record<string, unknown>;
  return { ...result, summary: read, config };
}

describe("report against a service with a rate limit", () => {
  it("keeps to the pace its RateLimit fields announce, and counts every 429 in --summary", async () => {
    server = await startBucketServer({ rate: 100, burst: 10, headers: "ietf", rows: 600 });
    const run = await report(server.url, ["--concurrency", "8"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim().split("\n")).toHaveLength(600);
    const refused = server.arrivals.filter((a) => a.status === 429).length;
    expect(run.summary()).toMatchObject({ outcome: "ok", requests: server.arrivals.length, throttled: refused });
    expect(refused).toBeLessThanOrEqual(2);
  });

  it("slows down after 429s when the service announces nothing, and still exports every row", async () => {
    server = await startBucketServer({ rate: 100, burst: 10, headers: "none", rows: 600 });
    const run = await report(server.url, ["--concurrency", "8"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim().split("\n")).toHaveLength(600);
    const refused = server.arrivals.filter((a) => a.status === 429).length;
    expect(run.summary()).toMatchObject({ throttled: refused, requests: server.arrivals.length });
    expect(refused / server.arrivals.length).toBeLessThanOrEqual(0.25);
  });

  it("never sends faster than --rate, whatever the service allows", async () => {
    server = await startBucketServer({ rate: 1000, burst: 1000, headers: "ietf", rows: 150 });
    const run = await report(server.url, ["--concurrency", "8", "--rate", "50/s"]);
    expect(run.code, run.stderr).toBe(0);
    // 50/s is one request every 20 ms. The spread, not each gap: a busy server can take two requests sent
    // 20 ms apart in one turn of its loop, but a slow machine only spreads them further.
    const { arrivals } = server;
    expect(arrivals.length).toBe(15);
    expect((arrivals.at(-1)?.at ?? 0) - (arrivals[0]?.at ?? 0)).toBeGreaterThanOrEqual(14 * 20 - 40);
  });

  it("ends at once with exit 5 when the service asks to wait past --max-time", async () => {
    server = await startBucketServer({
      rate: 1,
      burst: 1,
      headers: "none",
      rows: 100,
      retryAfter: { seconds: 600, code: "rate_limited" },
    });
    const started = performance.now();
    const run = await report(server.url, ["--max-time", "2m"]);
    expect(run.code).toBe(5);
    expect(run.stderr).toMatch(/10 min|600 s/);
    expect(performance.now() - started).toBeLessThan(60_000);
    expect(run.summary()).toMatchObject({ outcome: "failed", throttled: 1 });
  });

  it("counts in --summary every request sent, those in flight when the run ended included", async () => {
    server = await startBucketServer({
      rate: 1,
      burst: 1,
      headers: "none",
      rows: 100,
      retryAfter: { seconds: 600, code: "rate_limited" },
    });
    const run = await report(server.url, ["--max-time", "2m", "--concurrency", "4"]);
    expect(run.code).toBe(5);
    // The pages in flight when the 429 ended the run reach the service a moment later, or not at all.
    let seen = -1;
    while (seen !== server.arrivals.length) {
      seen = server.arrivals.length;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(server.arrivals.length).toBeGreaterThan(2);
    expect(run.summary()).toMatchObject({ requests: server.arrivals.length, retries: 0 });
  });

  it("says the daily quota is spent when the service says so", async () => {
    server = await startBucketServer({
      rate: 1,
      burst: 1,
      headers: "none",
      rows: 100,
      retryAfter: { seconds: 5 * 3600, code: "daily_quota_exceeded" },
    });
    const run = await report(server.url, []);
    expect(run.code).toBe(5);
    expect(run.stderr).toMatch(/daily quota/);
  });

  it("keeps the pace of a key and service in one ledger file of the state folder, named without the key", async () => {
    server = await startBucketServer({ rate: 100, burst: 10, headers: "ietf", rows: 30 });
    const run = await report(server.url, []);
    expect(run.code, run.stderr).toBe(0);
    const files = readdirSync(join(run.config, "state", "pace"));
    expect(files).toHaveLength(1);
    expect(files[0]).not.toContain(KEY.slice(4, 12));
  });

  it("leaves nothing in the state folder when nothing limits the run", async () => {
    server = await startBucketServer({ rate: 1000, burst: 1000, headers: "none", rows: 30 });
    const run = await report(server.url, []);
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(run.config, "state"))).toBe(false);
  });
});
