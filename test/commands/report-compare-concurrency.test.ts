/**
 * --compare fetches two reports side by side: together they keep to --concurrency (a service that limits
 * requests at once is asked no more than the user allowed). A local server counts requests in flight.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startLocalServer } from "../helpers/local-server";
import { KEY } from "../helpers/mock-api";
import { runInProcess } from "../helpers/run-cli";
import { tempDir } from "../helpers/temp";

const PAGES = 12;
let inFlight = 0;
let most = 0;
const service = await startLocalServer((req, res) => {
  inFlight += 1;
  most = Math.max(most, inFlight);
  const page = Number(new URL(req.url ?? "/", "http://x").searchParams.get("page") ?? "1");
  const body = JSON.stringify({
    meta: {
      granularity: "total",
      dimensions: ["campaign"],
      metrics: ["clicks"],
      total: PAGES,
      page,
      limit: 1,
      has_more: page < PAGES,
    },
    data: [{ dimensions: { campaign_id: page, name: `c${page}` }, metrics: { clicks: page } }],
  });
  // Held a moment, so the pages fetched ahead are in flight together.
  setTimeout(() => {
    inFlight -= 1;
    res.writeHead(200, { "content-type": "application/json" }).end(body);
  }, 30);
});

describe("--compare and --concurrency", () => {
  it.each([1, 3])("--concurrency %i: at most that many requests in flight over both periods", async (n) => {
    most = 0;
    const dir = tempDir();
    const result = await runInProcess(
      ["report", "--from", "2026-10-08", "--to", "2026-10-14", "--dims", "campaign", "--metrics", "clicks"].concat([
        "--compare",
        "previous",
        "--page-size",
        "1",
        "--concurrency",
        String(n),
        "-f",
        "csv",
        "-q",
      ]),
      {
        now: new Date("2026-11-02T08:00:00Z"),
        env: { ADREPORT_CONFIG_DIR: join(dir, "config"), ADREPORT_API_KEY: KEY, ADREPORT_BASE_URL: service.url },
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim().split("\n")).toHaveLength(PAGES + 1);
    expect(most).toBeLessThanOrEqual(n);
  });
});
