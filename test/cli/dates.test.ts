/** --from and --to as a user meets them: the default range, and errors that say what would do. */
import { createServer } from "node:http";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli";

function utcDay(daysAgo: number): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - daysAgo))
    .toISOString()
    .slice(0, 10);
}

describe("the default range", () => {
  it("is the last 7 complete UTC days: -7d to yesterday, not today", async () => {
    const queries: URLSearchParams[] = [];
    const server = createServer((req, res) => {
      queries.push(new URL(req.url ?? "/", "http://x").searchParams);
      res.writeHead(401, { "content-type": "application/json" });
      res.end('{"error":{"status":401,"code":"invalid_key","message":"no"}}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    try {
      const before = [utcDay(7), utcDay(1)];
      const result = await runCli(["report", "--retries", "0"], {
        env: {
          ADREPORT_API_KEY: "adr_test",
          ADREPORT_BASE_URL: `http://127.0.0.1:${port}`,
          ADREPORT_CONFIG_DIR: "/nonexistent",
        },
      });
      const after = [utcDay(7), utcDay(1)];
      expect(result.code).toBe(3);
      const sent = [queries[0]?.get("from"), queries[0]?.get("to")];
      // A run across midnight UTC may see either day.
      expect([before, after]).toContainEqual(sent);
    } finally {
      server.close();
    }
    const help = await runCli(["report", "--help"]);
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
    const result = await runCli(["report", ...args], {
      env: {
        ADREPORT_API_KEY: "adr_test",
        ADREPORT_BASE_URL: "http://127.0.0.1:9",
        ADREPORT_CONFIG_DIR: "/nonexistent",
      },
    });
    expect(result.code).toBe(2);
    expect(result.stderr.split("\n")[0]).toContain(`adreport: ${message}`);
    expect(result.stderr).not.toContain("ISO 8601 date-time");
  });
});
