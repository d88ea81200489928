/** --from and --to as a user meets them: the default range by a fixed clock, and errors that say what would do. */
import { describe, expect, it } from "vitest";
import { KEY, mockAgent, ORIGIN } from "../../helpers/mock-api";
import { runInProcess } from "../../helpers/run-cli-in-process";

const ENV = { ADREPORT_API_KEY: KEY, ADREPORT_BASE_URL: ORIGIN };

/** A service that refuses every key, recording what was asked. */
function refusingService() {
  const mock = mockAgent();
  mock.pool
    .intercept({ path: (p) => p.startsWith("/v1/report"), method: "GET" })
    .reply((opts) => {
      mock.record(opts);
      return {
        statusCode: 401,
        data: '{"error":{"status":401,"code":"invalid_key","message":"no"}}',
        responseOptions: { headers: { "content-type": "application/json" } },
      };
    })
    .persist();
  return mock;
}

describe("the default range", () => {
  it.each([
    ["2026-11-23T10:00:00Z", "2026-11-16", "2026-11-22"],
    // Just after midnight UTC the day that has just ended is complete: it is yesterday.
    ["2026-03-01T00:00:01Z", "2026-02-22", "2026-02-28"],
    ["2026-01-01T23:59:59Z", "2025-12-25", "2025-12-31"],
  ])("at %s is the last 7 complete UTC days: %s to %s, not today", async (now, from, to) => {
    const mock = refusingService();
    const result = await runInProcess(["report", "--retries", "0"], {
      env: ENV,
      dispatcher: mock.agent,
      now: new Date(now),
    });
    expect(result.code).toBe(3);
    expect(mock.seen).toHaveLength(1);
    expect([mock.seen[0]?.params.get("from"), mock.seen[0]?.params.get("to")]).toEqual([from, to]);
  });

  it("is documented in report --help", async () => {
    const help = await runInProcess(["report", "--help"]);
    expect(help.stdout).toContain("the last 7 complete UTC days");
    expect(help.stdout).toContain('(default: "yesterday")');
  });
});

describe("a --from or --to adreport does not know", () => {
  it.each([
    [["--from", "last week"], '--from: "last week" is not one of: today, yesterday, -Nd'],
    [["--to", "2026-13-01"], '--to: "2026-13-01" is not one of: today, yesterday, -Nd'],
    [["--from", "-100000d"], "--from: -100000d is out of range: the earliest day is 1970-01-01"],
  ])("%j: exit 2, nothing sent", async (args, message) => {
    const mock = refusingService();
    const result = await runInProcess(["report", ...args], {
      env: ENV,
      dispatcher: mock.agent,
      now: new Date("2026-11-23T10:00:00Z"),
    });
    expect(result.code).toBe(2);
    expect(result.stderr.split("\n")[0]).toContain(`adreport: ${message}`);
    expect(result.stderr).not.toContain("ISO 8601 date-time");
    expect(mock.seen).toHaveLength(0);
  });
});
