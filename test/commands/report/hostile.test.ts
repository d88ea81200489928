/**
 * `adreport report` (in this process) against local services that break their answers on purpose: each kind
 * of failure, at every request, ends with exit 5 after exactly --retries + 1 requests for the page; at a lower
 * rate the export completes with every row; loops a service could lead the client into end by themselves.
 * The heap bound under such a loop needs a process: test/e2e/hostile-service.test.ts.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { type BoundedRun, runInProcessBounded } from "../../helpers/bounded-run";
import { configDirWith } from "../../helpers/config";
import { FAULTS, type Fault, startFakeService } from "../../helpers/fake-service";
import { tempDir } from "../../helpers/temp";

const ROWS = 50;
const PAGE_SIZE = 10;
const RETRIES = 2;
/** A run that has not ended by then is looping: the test stops waiting for it and fails. */
const GIVE_UP_AFTER_MS = 60_000;
vi.setConfig({ testTimeout: GIVE_UP_AFTER_MS + 30_000 });

const ENV = { ADREPORT_API_KEY: "adr_hostile-test-key", ADREPORT_CONFIG_DIR: "/nonexistent-adreport" };

function report(url: string, extra: string[] = [], env: Record<string, string> = {}): Promise<BoundedRun> {
  const args = [
    "report",
    "--base-url",
    url,
    "--from",
    "2026-11-01",
    "--to",
    "2026-11-07",
    "--dims",
    "campaign",
    "--metrics",
    "views,clicks",
    "--format",
    "ndjson",
    "--page-size",
    String(PAGE_SIZE),
    "--retries",
    String(RETRIES),
    "--timeout",
    "1s",
    ...extra,
  ];
  return runInProcessBounded(args, { env: { ...ENV, ...env } }, GIVE_UP_AFTER_MS);
}

function viewsOf(stdout: string): number[] {
  return stdout
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => (JSON.parse(line) as { metrics: { views: number } }).metrics.views);
}

const ALL_VIEWS = Array.from({ length: ROWS }, (_, i) => (i + 1) * 10);

// Every case has its own service and waits mostly on the client's timeouts and backoff: they run side by side.
describe.concurrent.each(FAULTS)("a service whose answers fail with %s", (fault: Fault) => {
  it("at every request: exit 5 after exactly retries + 1 requests for the first page, and no other page", async () => {
    const service = await startFakeService({ rows: ROWS, fault: () => fault });
    const run = await report(service.url);
    expect(run.killed).toBe(false);
    expect(run.code).toBe(5);
    expect(run.stderr).toMatch(/^adreport: .*\(page 1: gave up after 3 attempts\)\n/);
    expect(Object.fromEntries(service.requests)).toEqual({ 1: RETRIES + 1 });
  });

  it("at every request for page 2: the same budget, exactly retries + 1 requests for it", async () => {
    const service = await startFakeService({ rows: ROWS, fault: (r) => (r.page === 2 ? fault : undefined) });
    const run = await report(service.url);
    expect(run.killed).toBe(false);
    expect(run.code).toBe(5);
    expect(run.stderr).toContain("(page 2: gave up after 3 attempts)");
    expect(service.requests.get(1)).toBe(1);
    expect(service.requests.get(2)).toBe(RETRIES + 1);
    for (const [page, count] of service.requests) if (page > 2) expect(count).toBe(1);
  });

  it("at the first request of each page: completes with every row, in order", async () => {
    const service = await startFakeService({ rows: ROWS, fault: (r) => (r.attempt === 1 ? fault : undefined) });
    const run = await report(service.url);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(viewsOf(run.stdout)).toEqual(ALL_VIEWS);
    for (const count of service.requests.values()) expect(count).toBe(2);
  });
});

describe.concurrent("loops a service could lead the client into", () => {
  const samePage = () =>
    Array.from({ length: PAGE_SIZE }, (_, i) => ({ dimensions: { campaign_id: i }, metrics: { views: i } }));

  it("has_more forever with a total of 10^12 and page 1 served for every page: exit 5, a handful of requests", async () => {
    const service = await startFakeService({
      rows: ROWS,
      meta: () => ({ total: 1e12, has_more: true, page: 1 }),
      rowsOf: samePage,
    });
    const run = await report(service.url, ["--concurrency", "4"]);
    expect(run.code).toBe(5);
    expect(run.stderr).toContain("page 2 was answered as page 1");
    expect(service.total()).toBeLessThanOrEqual(6); // page 1, pages 2 to 5 asked ahead
  });

  it("has_more forever with the same rows under each page number: exit 5 after a restart into a file", async () => {
    const service = await startFakeService({
      rows: ROWS,
      meta: () => ({ total: 1e12, has_more: true }),
      rowsOf: samePage,
    });
    const output = join(tempDir(), "report.ndjson");
    const run = await report(service.url, ["--concurrency", "4", "--output", output]);
    expect(run.code).toBe(5);
    expect(run.stderr).toContain("page 2 repeats page 1");
    expect(existsSync(output)).toBe(false);
    expect(service.total()).toBeLessThanOrEqual(2 * 6); // the restart from page 1 the contract allows, once
  });

  it("a full, new page forever under a total of 10^12: --max-time ends it with exit 5", async () => {
    const service = await startFakeService({ rows: 1e12 });
    const run = await report(service.url, ["--max-time", "2s", "--page-size", "1"]);
    expect(run.killed).toBe(false);
    expect(run.code).toBe(5);
    expect(run.stderr).toMatch(
      /^adreport: gave up after 2s \(max-time\): [\d,]+ of 1,000,000,000,000 pages, [\d,]+ of 1,000,000,000,000 rows\nhint: /,
    );
  });

  it("429 with Retry-After: 0 forever: exit 5 after retries + 1 requests, each retry after the backoff", async () => {
    const service = await startFakeService({ rows: ROWS, fault: () => "429-retry-after-0" });
    const run = await report(service.url, ["--verbose"]);
    expect(run.code).toBe(5);
    expect(service.total()).toBe(RETRIES + 1);
    expect(run.stderr).toMatch(/retry 1\/2 in /);
    expect(run.stderr).toMatch(/retry 2\/2 in /);
  });
});

describe.concurrent("an answer over the bound (max-page-mb)", () => {
  it.each([
    ["a 200 page", "huge-page" as const],
    ["an error body", "huge-error" as const],
  ])("%s of 3 MB against a bound of 1 MB: exit 5 naming the page and the bound, one request", async (_label, fault) => {
    const service = await startFakeService({ rows: ROWS, fault: (r) => (r.page === 2 ? fault : undefined) });
    const run = await report(service.url, [], { ADREPORT_CONFIG_DIR: configDirWith({ "max-page-mb": 1 }) });
    expect(run.code).toBe(5);
    expect(run.stderr).toMatch(/^adreport: the answer to page 2 is larger than the 1 MB bound \(max-page-mb\)/);
    expect(service.requests.get(2)).toBe(1);
  });
});

describe("keys test --max-time", () => {
  it("ends a test against a service that never answers, with exit 5", async () => {
    const service = await startFakeService({ rows: 1, fault: () => "hang" });
    const run = await runInProcessBounded(
      ["keys", "test", "--base-url", service.url, "--timeout", "60s", "--max-time", "1s"],
      { env: ENV },
      GIVE_UP_AFTER_MS,
    );
    expect(run.killed).toBe(false);
    expect(run.code).toBe(5);
    expect(run.stderr).toContain("could not test the key: gave up after 1s (max-time): no answer had come");
  });
});
