/**
 * What only a process shows of a hostile service: the heap bound (src/cli/memory.ts, applied by the entry
 * point) holding while a service serves new pages forever. Every other hostile case runs in this process:
 * test/commands/report/hostile.test.ts.
 */
import { describe, expect, it, vi } from "vitest";
import { runCliBounded } from "../helpers/bounded-run";
import { startFakeService } from "../helpers/fake-service";

/** A run that has not ended by then is looping: it is killed and the test fails. */
const KILL_AFTER_MS = 60_000;
vi.setConfig({ testTimeout: KILL_AFTER_MS + 30_000 });

describe("a loop a service could lead the client into, in a process with a small heap", { tags: ["binary"] }, () => {
  it("a full, new page forever under a total of 10^12: --max-time ends it with exit 5, memory flat", async () => {
    const service = await startFakeService({ rows: 1e12 });
    const run = await runCliBounded(
      [
        "report",
        "--base-url",
        service.url,
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
        "1",
        "--retries",
        "2",
        "--timeout",
        "1s",
        "--max-time",
        "3s",
      ],
      {
        ADREPORT_API_KEY: "adr_hostile-test-key",
        ADREPORT_CONFIG_DIR: "/nonexistent-adreport",
        NODE_OPTIONS: "--max-old-space-size=64",
      },
      KILL_AFTER_MS,
    );
    expect(run.killed).toBe(false);
    expect(run.code).toBe(5);
    // The single binary under NODE_OPTIONS heap flags may first warn that its code cache was rejected.
    expect(run.stderr).toMatch(
      /(?:^|\n)adreport: gave up after 3s \(max-time\): [\d,]+ of 1,000,000,000,000 pages, [\d,]+ of 1,000,000,000,000 rows\nhint: /,
    );
  });
});
