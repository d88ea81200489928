/**
 * The real CLI against a real `serve --faults`: the two faults that once made `report` loop without end
 * (a 200 cut off mid-body, a request never answered) end with exit 5 after exactly --retries + 1 attempts,
 * counted in serve's own access log; at a lower rate the export completes with every row.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CliServer, runCli, startCliServe } from "../helpers/cli";
import { tempDir } from "../helpers/temp";

const dir = tempDir();
const db = join(dir, "faults.db");
const demo = await runCli(["serve", "demo", "--db", db, "--days", "7", "--end", "2026-11-01"]);
if (demo.code !== 0) throw new Error(demo.stderr);
const KEY = (
  await runCli(["serve", "key", "issue", "--db", db, "--advertiser", "Acme Outdoor", "--ip", "127.0.0.1"])
).stdout.trim();
const clean = await startCliServe(["--db", db, "--quiet"]);

const RANGE = ["--from", "2026-10-25", "--to", "2026-10-31"];
const HOURLY = [...RANGE, "--dims", "ad,date", "--granularity", "hour", "--page-size", "100", "-f", "ndjson"];

function report(server: CliServer, args: string[]) {
  return runCli(["report", ...args], {
    env: { ADREPORT_CONFIG_DIR: join(dir, "config"), ADREPORT_API_KEY: KEY, ADREPORT_BASE_URL: server.url },
  });
}

/** The requests `serve` logged for page `page` that a fault of `kind` took over. */
function faultLines(server: CliServer, kind: string, page: number): string[] {
  return server
    .stderr()
    .split("\n")
    .filter((line) => line.includes(`fault:${kind}`) && line.includes(`page=${page}&`));
}

async function waitFor(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 25));
}

describe("report against serve --faults at rate 1", () => {
  it("reset-body: exit 5 after exactly retries + 1 requests for the page", async () => {
    const server = await startCliServe(["--db", db, "--faults", "reset-body:1"]);
    const result = await report(server, [...RANGE, "--dims", "campaign", "--retries", "2"]);
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/page 1: gave up after 3 attempts/);
    expect(result.stdout).toBe("");
    await waitFor(() => faultLines(server, "reset-body", 1).length >= 3);
    expect(faultLines(server, "reset-body", 1)).toHaveLength(3);
    expect(server.stderr()).not.toMatch(/page=2&/);
    expect(await server.stop()).toBe(0);
  });

  it("hang: exit 5 after exactly retries + 1 requests, each cut by --timeout", async () => {
    const server = await startCliServe(["--db", db, "--faults", "hang:1", "--shutdown-timeout", "1"]);
    const result = await report(server, [...RANGE, "--dims", "campaign", "--retries", "1", "--timeout", "500ms"]);
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/gave up after 2 attempts/);
    await waitFor(() => faultLines(server, "hang", 1).length >= 2);
    expect(faultLines(server, "hang", 1)).toHaveLength(2);
    expect(await server.stop()).toBe(0);
  });
});

describe("report against serve --faults at a lower rate", () => {
  const expected = report(clean, HOURLY);

  it("completes with every row through reset bodies", async () => {
    const server = await startCliServe(["--db", db, "--quiet", "--faults", "reset-body:every3"]);
    const [want, got] = await Promise.all([expected, report(server, [...HOURLY, "--retries", "6"])]);
    expect(want.code).toBe(0);
    expect(want.stdout.split("\n").length).toBeGreaterThan(300);
    expect(got.code).toBe(0);
    expect(got.stdout).toBe(want.stdout);
    await server.stop();
  });

  it("completes with every row through requests never answered", async () => {
    const server = await startCliServe(["--db", db, "--quiet", "--faults", "hang:every4", "--shutdown-timeout", "1"]);
    const got = await report(server, [...HOURLY, "--retries", "6", "--timeout", "1s"]);
    expect(got.code).toBe(0);
    expect(got.stdout).toBe((await expected).stdout);
    await server.stop();
  });
});
