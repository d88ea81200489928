/**
 * `report` (in this process) against a real server with `serve --faults` rules: the two faults that once made
 * `report` loop without end (a 200 cut off mid-body, a request never answered) end with exit 5 after exactly
 * --retries + 1 attempts, counted in the server's own access log; at a lower rate the export completes with
 * every row. The same against the `serve` process: test/e2e/serve-faults.test.ts.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runInProcess } from "../../helpers/run-cli-in-process";
import { type ListenOptions, serveDatabase } from "../../helpers/serve";
import { tempDir } from "../../helpers/temp";

const dir = tempDir();
const db = join(dir, "faults.db");
const demo = await runInProcess(["serve", "demo", "--db", db, "--days", "7", "--end", "2026-11-01"]);
if (demo.code !== 0) throw new Error(demo.stderr);
const issued = await runInProcess([
  "serve",
  "key",
  "issue",
  "--db",
  db,
  "--advertiser",
  "Acme Outdoor",
  "--ip",
  "127.0.0.1",
]);
if (issued.code !== 0) throw new Error(issued.stderr);
const KEY = issued.stdout.trim();
const clean = await serveDatabase(db);

const RANGE = ["--from", "2026-10-25", "--to", "2026-10-31"];
const HOURLY = [...RANGE, "--dims", "ad,date", "--granularity", "hour", "--page-size", "100", "-f", "ndjson"];

function report(server: { url: string }, args: string[]) {
  return runInProcess(["report", ...args], {
    env: { ADREPORT_CONFIG_DIR: join(dir, "config"), ADREPORT_API_KEY: KEY, ADREPORT_BASE_URL: server.url },
  });
}

function withFaults(faults: string, options: ListenOptions = {}) {
  return serveDatabase(db, { ...options, faults });
}

/** The requests the server logged for page `page` that a fault of `kind` took over. */
function faultLines(server: { accessLog: string[] }, kind: string, page: number): string[] {
  return server.accessLog.filter((line) => line.includes(`fault:${kind}`) && line.includes(`page=${page}&`));
}

// Each case has its own fault server and waits mostly on timeouts and backoff: they run side by side.
describe.concurrent("report against serve --faults at rate 1", () => {
  it("reset-body: exit 5 after exactly retries + 1 requests for the page", async ({ expect }) => {
    const server = await withFaults("reset-body:1");
    const result = await report(server, [...RANGE, "--dims", "campaign", "--retries", "2"]);
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/page 1: gave up after 3 attempts/);
    expect(result.stdout).toBe("");
    // The server logs on its own schedule, not the client's: wait for the lines, bounded.
    await expect.poll(() => faultLines(server, "reset-body", 1).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
    expect(faultLines(server, "reset-body", 1)).toHaveLength(3);
    expect(server.accessLog.join("\n")).not.toMatch(/page=2&/);
    await server.server.close();
  });

  it("hang: exit 5 after exactly retries + 1 requests, each cut by --timeout", async ({ expect }) => {
    const server = await withFaults("hang:1", { serve: { shutdownTimeoutMs: 1000 } });
    const result = await report(server, [...RANGE, "--dims", "campaign", "--retries", "1", "--timeout", "500ms"]);
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/gave up after 2 attempts/);
    await expect.poll(() => faultLines(server, "hang", 1).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    expect(faultLines(server, "hang", 1)).toHaveLength(2);
    await server.server.close();
  });
});

describe.concurrent("report against serve --faults at a lower rate", () => {
  const expected = report(clean, HOURLY);

  it("completes with every row through reset bodies", async () => {
    const server = await withFaults("reset-body:every3");
    const [want, got] = await Promise.all([expected, report(server, [...HOURLY, "--retries", "6"])]);
    expect(want.code).toBe(0);
    expect(want.stdout.split("\n").length).toBeGreaterThan(300);
    expect(got.code).toBe(0);
    expect(got.stdout).toBe(want.stdout);
    await server.server.close();
  });

  it("completes with every row through requests never answered", async () => {
    const server = await withFaults("hang:every4", { serve: { shutdownTimeoutMs: 1000 } });
    const got = await report(server, [...HOURLY, "--retries", "6", "--timeout", "1s"]);
    expect(got.code).toBe(0);
    expect(got.stdout).toBe((await expected).stdout);
    await server.server.close();
  });
});
