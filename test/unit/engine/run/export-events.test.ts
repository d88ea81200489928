/**
 * An export from its plan to what the engine tells (EngineEvents) and writes, against an undici MockAgent:
 * the pages followed, retries after a 503 and a 429 with Retry-After, a service whose `total` lies, an empty
 * report, a refused key, and the rows that reach stdout or a file.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { exitCodeOf } from "../../../../src/core/errors";
import { engineRun, plannedRun, runRecorded } from "../../../helpers/engine-run";
import { mockAgent, rowsOf, servePages } from "../../../helpers/mock-api";
import { ndjsonRows } from "../../../helpers/sinks";
import { tempDir } from "../../../helpers/temp";

const CAMPAIGNS = ["--dims", "campaign", "--metrics", "views,clicks", "--page-size", "100"];
const JSON_HEADERS = { "content-type": "application/json" };

/** An answer `status` to the next `times` requests for `page`, before the pages servePages answers. */
function failPage(
  mock: ReturnType<typeof mockAgent>,
  page: number,
  status: number,
  options: { times?: number; headers?: Record<string, string> } = {},
) {
  const code = status === 429 ? "rate_limited" : "unavailable";
  mock.pool
    .intercept({ path: (p) => p.startsWith("/v1/report") && pageParam(p) === String(page), method: "GET" })
    .reply((opts) => {
      mock.record(opts);
      return {
        statusCode: status,
        data: JSON.stringify({ error: { status, code, message: "not now" } }),
        responseOptions: { headers: { ...JSON_HEADERS, ...options.headers } },
      };
    })
    .times(options.times ?? 1);
}

function pageParam(path: string): string | null {
  return new URL(path, "http://x").searchParams.get("page");
}

/** The pages asked for, in the order the requests were sent. */
function pagesAsked(mock: ReturnType<typeof mockAgent>): number[] {
  return mock.seen.map((request) => Number(request.params.get("page")));
}

// Backoff is full jitter over Math.random: at 0 a retry waits only what Retry-After asks, so no case sleeps.
beforeEach(() => {
  vi.spyOn(Math, "random").mockReturnValue(0);
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe("an export's pages", () => {
  it("follows every page in order into stdout and tells the run in events", async () => {
    const mock = mockAgent();
    servePages(mock, rowsOf(250));
    const run = await engineRun([...CAMPAIGNS, "-f", "ndjson"], { dispatcher: mock.agent });
    expect(run.error).toBeUndefined();
    expect(run.done).toEqual({ rows: 250 });
    expect(pagesAsked(mock).sort()).toEqual([1, 2, 3]);
    expect(run.story()[0]).toBe("progress");
    expect(run.story().slice(1, 3)).toEqual(["sent p1", "response 200 p1"]);
    expect(run.story().at(-1)).toBe("summary ok");
    expect(run.said()).toEqual([]);
    expect(run.summary()).toEqual({
      job: null,
      outcome: "ok",
      from: "2026-11-16",
      to: "2026-11-22",
      rows: 250,
      requests: 3,
      retries: 0,
      throttled: 0,
    });
    expect(run.progress.at(-1)).toEqual({ page: 3, pages: 3, rows: 250, total: 250 });
    const rows = ndjsonRows(run.memory.stdout()) as Array<{ dimensions: { campaign_id: number } }>;
    expect(rows.map((row) => row.dimensions.campaign_id)).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
  });

  it("asks with the plan's range, fields and page size, and the key as a bearer token", async () => {
    const mock = mockAgent();
    servePages(mock, rowsOf(3));
    await engineRun([...CAMPAIGNS, "--from", "2026-10-01", "--to", "2026-10-31"], { dispatcher: mock.agent });
    const [first] = mock.seen;
    expect(Object.fromEntries(first?.params ?? [])).toEqual({
      from: "2026-10-01",
      to: "2026-10-31",
      metrics: "views,clicks",
      dimensions: "campaign",
      page: "1",
      limit: "100",
    });
    expect(first?.headers.authorization).toMatch(/^Bearer adr_/);
  });

  it("writes a file in place and says so once, with the rows it holds", async () => {
    const mock = mockAgent();
    servePages(mock, rowsOf(120));
    const cwd = tempDir();
    const run = await engineRun([...CAMPAIGNS, "-o", "x.csv"], { dispatcher: mock.agent, cwd });
    expect(run.said()).toEqual(["wrote 120 to x.csv"]);
    const lines = readFileSync(join(cwd, "x.csv"), "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(121);
    expect(lines[0]).toBe("campaign_id,name,views,clicks");
    expect(run.memory.stdout()).toBe("");
  });

  it("fetches a range over 90 days a window at a time", async () => {
    const mock = mockAgent();
    servePages(mock, rowsOf(2));
    const run = await engineRun([...CAMPAIGNS, "--from", "2026-01-01", "--to", "2026-06-30", "-f", "ndjson"], {
      dispatcher: mock.agent,
    });
    expect(run.error).toBeUndefined();
    expect(mock.seen.map((r) => `${r.params.get("from")}..${r.params.get("to")}`)).toEqual([
      "2026-01-01T00:00:00Z..2026-03-31T23:59:59Z",
      "2026-04-01T00:00:00Z..2026-06-29T23:59:59Z",
      "2026-06-30T00:00:00Z..2026-06-30T23:59:59Z",
    ]);
    expect(run.summary()).toMatchObject({ outcome: "ok", requests: 3 });
  });

  it("an empty report: a header on stdout and a note with the range and zone", async () => {
    const mock = mockAgent();
    servePages(mock, []);
    const run = await engineRun(CAMPAIGNS, { dispatcher: mock.agent });
    expect(run.error).toBeUndefined();
    expect(run.memory.stdout()).toBe("campaign_id,name,views,clicks\n");
    expect(run.said()).toEqual(["note: no rows for 2026-11-16..2026-11-22 (UTC)"]);
    expect(run.summary()).toMatchObject({ outcome: "ok", rows: 0, requests: 1 });
  });

  it("an ad not in the campaign: the warning says why the report is empty, and no note", async () => {
    const mock = mockAgent();
    servePages(mock, []);
    const run = await engineRun([...CAMPAIGNS, "--campaign", "7", "--ad", "9"], { dispatcher: mock.agent });
    expect(run.said()).toEqual([
      "warning: no data for --ad 9 with --campaign 7: the report is empty when the ad is not in that campaign (or has no data in the range)",
    ]);
  });

  it("--compare asks for both periods and writes the previous one beside", async () => {
    const mock = mockAgent();
    servePages(mock, rowsOf(2));
    const run = await engineRun(
      [...CAMPAIGNS, "--compare", "previous", "--from", "2026-10-08", "--to", "2026-10-14", "-f", "ndjson"],
      { dispatcher: mock.agent },
    );
    expect(run.error).toBeUndefined();
    expect(mock.seen.map((r) => r.params.get("from")).sort()).toEqual(["2026-10-01T00:00:00Z", "2026-10-08"]);
    const [row] = ndjsonRows(run.memory.stdout()) as Array<{ metrics: Record<string, unknown> }>;
    expect(Object.keys(row?.metrics ?? {})).toEqual([
      "views",
      "views_prev",
      "views_change",
      "clicks",
      "clicks_prev",
      "clicks_change",
    ]);
  });
});

describe("an export's retries", () => {
  it("a 503 on page 2 is asked again, and the run counts the retry", async () => {
    const mock = mockAgent();
    failPage(mock, 2, 503);
    servePages(mock, rowsOf(250));
    const run = await engineRun([...CAMPAIGNS, "-f", "ndjson", "--concurrency", "1"], { dispatcher: mock.agent });
    expect(run.error).toBeUndefined();
    expect(pagesAsked(mock)).toEqual([1, 2, 2, 3]);
    expect(run.story().filter((line) => !line.startsWith("sent"))).toEqual([
      "progress",
      "response 200 p1",
      "response 503 p2",
      "retry 1/4",
      "response 200 p2",
      "response 200 p3",
      "summary ok",
    ]);
    expect(run.api("retry")[0]?.reason).toContain("503");
    expect(run.summary()).toMatchObject({ rows: 250, requests: 4, retries: 1, throttled: 0 });
    expect(ndjsonRows(run.memory.stdout())).toHaveLength(250);
  });

  it("a 429 with Retry-After waits what it says before the next try, and counts it throttled", async () => {
    const mock = mockAgent();
    failPage(mock, 1, 429, { headers: { "retry-after": "0.05" } });
    servePages(mock, rowsOf(50));
    const run = await engineRun(CAMPAIGNS, { dispatcher: mock.agent });
    expect(run.error).toBeUndefined();
    expect(run.api("retry")).toEqual([expect.objectContaining({ retry: 1, of: 4, waitMs: 50 })]);
    expect(run.story()).toEqual([
      "progress",
      "sent p1",
      "response 429 p1",
      "retry 1/4",
      "sent p1",
      "response 200 p1",
      "summary ok",
    ]);
    expect(run.summary()).toMatchObject({ requests: 2, retries: 1, throttled: 1, rows: 50 });
  });

  it("--retries 1 and a page that keeps failing: the run fails, says so in its summary, and writes no file", async () => {
    const mock = mockAgent();
    failPage(mock, 2, 503, { times: 2 });
    servePages(mock, rowsOf(250));
    const cwd = tempDir();
    const run = await engineRun([...CAMPAIGNS, "--retries", "1", "--concurrency", "1", "-o", "x.csv"], {
      dispatcher: mock.agent,
      cwd,
    });
    const message = "the service answered 503: not now (page 2: gave up after 2 attempts)";
    expect(run.error?.message).toBe(message);
    expect(exitCodeOf(run.error)).toBe(5);
    expect(run.summary()).toMatchObject({ outcome: "failed", rows: 0, requests: 3, retries: 1, error: message });
    expect(existsSync(join(cwd, "x.csv"))).toBe(false);
    expect(run.said()).toEqual([]);
  });

  it("a refused key is not retried: the auth error, exit 3", async () => {
    const mock = mockAgent();
    mock.pool
      .intercept({ path: (p) => p.startsWith("/v1/report"), method: "GET" })
      .reply(401, '{"error":{"status":401,"code":"invalid_key","message":"no"}}', { headers: JSON_HEADERS });
    const run = await engineRun(CAMPAIGNS, { dispatcher: mock.agent });
    expect(run.error?.message).toBe("the service refused the key (401): no");
    expect(exitCodeOf(run.error)).toBe(3);
    expect(run.story()).toEqual(["progress", "sent p1", "response 401 p1", "summary failed"]);
    expect(run.summary()).toMatchObject({ outcome: "failed", requests: 1, retries: 0 });
  });
});

describe("a service that lies", () => {
  it("a total that changes on the first try only: the file restarts once and is written whole", async () => {
    const mock = mockAgent();
    let firstTry = true;
    servePages(mock, rowsOf(250), {
      total: (page) => {
        if (page === 2 && firstTry) {
          firstTry = false;
          return 260;
        }
        return 250;
      },
    });
    const cwd = tempDir();
    const run = await engineRun([...CAMPAIGNS, "--concurrency", "1", "-o", "x.csv"], { dispatcher: mock.agent, cwd });
    expect(run.error).toBeUndefined();
    expect(pagesAsked(mock)).toEqual([1, 2, 1, 2, 3]);
    expect(readFileSync(join(cwd, "x.csv"), "utf8").trimEnd().split("\n")).toHaveLength(251);
    expect(run.summary()).toMatchObject({ outcome: "ok", rows: 250 });
  });

  it("a total that keeps lying: one restart, then the run fails as the data changed", async () => {
    const mock = mockAgent();
    servePages(mock, rowsOf(250), { total: (page) => (page === 1 ? 250 : 300) });
    const cwd = tempDir();
    const run = await engineRun([...CAMPAIGNS, "--concurrency", "1", "-o", "x.csv"], { dispatcher: mock.agent, cwd });
    expect(run.error?.message).toBe(
      "the report changed while it was being fetched (total went from 250 to 300 at page 2)",
    );
    expect(pagesAsked(mock)).toEqual([1, 2, 1, 2]);
    expect(run.summary()).toMatchObject({ outcome: "failed" });
    expect(existsSync(join(cwd, "x.csv"))).toBe(false);
  });

  it("a total above the rows sent, on stdout already written: no restart, the output said incomplete", async () => {
    const mock = mockAgent();
    servePages(mock, rowsOf(150), { total: () => 160, hasMore: (page) => page < 2 });
    const run = await engineRun([...CAMPAIGNS, "-f", "ndjson", "--concurrency", "1"], { dispatcher: mock.agent });
    expect(run.error?.message).toBe(
      "the report changed while it was being fetched (150 rows received, 160 announced); rows already written to standard output are incomplete",
    );
    expect(pagesAsked(mock)).toEqual([1, 2]);
  });

  it("a last page that says more follow ends the run, not an endless loop", async () => {
    const mock = mockAgent();
    servePages(mock, rowsOf(200), { hasMore: () => true });
    const run = await engineRun([...CAMPAIGNS, "-o", "x.csv", "--concurrency", "1"], {
      dispatcher: mock.agent,
      cwd: tempDir(),
    });
    expect(run.error?.message).toBe(
      "the report changed while it was being fetched (page 2 says more follow, but the 200 rows announced fit in 2 pages of 100)",
    );
    expect(Math.max(...pagesAsked(mock))).toBe(2);
  });
});

describe("an export stopped", () => {
  /** A service whose first answer is held back a minute; `onRequest` runs as the request comes. */
  function heldService(onRequest: () => void = () => undefined) {
    const mock = mockAgent();
    mock.pool
      .intercept({ path: (p) => p.startsWith("/v1/report"), method: "GET" })
      .reply((opts) => {
        mock.record(opts);
        setImmediate(onRequest);
        return { statusCode: 200, data: "{}" };
      })
      .delay(60_000);
    return mock;
  }

  it("--max-time: the run gives up, says how far it got, and leaves the file as it was", async () => {
    const cwd = tempDir();
    const run = await engineRun([...CAMPAIGNS, "--max-time", "30ms", "-o", "x.csv"], {
      dispatcher: heldService().agent,
      cwd,
    });
    expect(run.error?.message).toBe("gave up after 30ms (max-time): the first page had not come");
    expect(exitCodeOf(run.error)).toBe(5);
    expect(run.summary()).toMatchObject({ outcome: "failed", error: run.error?.message, requests: 1 });
    expect(existsSync(join(cwd, "x.csv"))).toBe(false);
  });

  it("SIGINT: the request dropped at once, the file left as it was, the signal let go", async () => {
    const cwd = tempDir();
    let stop = () => {};
    const mock = heldService(() => stop());
    const { memory, plan } = await plannedRun([...CAMPAIGNS, "-o", "x.csv"], { dispatcher: mock.agent, cwd });
    stop = () => memory.signal("SIGINT");
    const run = await runRecorded(memory, plan);
    expect(run.error?.message).toBe("interrupted; x.csv was left as it was");
    expect(exitCodeOf(run.error)).toBe(130);
    expect(run.summary()).toMatchObject({ outcome: "failed", error: "interrupted; x.csv was left as it was" });
    expect(existsSync(join(cwd, "x.csv"))).toBe(false);
    expect(memory.signalHandlers()).toBe(0);
  });
});
