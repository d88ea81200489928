/**
 * The real `serve --faults` process, and the real `report` process against it: the database made by
 * `serve demo`, a key issued by `serve key issue`, and a 200 cut off mid-body at every request ending the
 * report with exit 5 after exactly --retries + 1 attempts, counted in serve's own access log on stderr.
 * This keeps the serve family proven in the single binary; the other fault cases run in this process:
 * test/commands/serve/faults.test.ts.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, startCliServe } from "../helpers/spawn-cli";
import { tempDir } from "../helpers/temp";

const dir = tempDir();
const db = join(dir, "faults.db");
const demo = await runCli(["serve", "demo", "--db", db, "--days", "7", "--end", "2026-11-01"]);
if (demo.code !== 0) throw new Error(demo.stderr);
const KEY = (
  await runCli(["serve", "key", "issue", "--db", db, "--advertiser", "Acme Outdoor", "--ip", "127.0.0.1"])
).stdout.trim();

describe("report against serve --faults at rate 1", { tags: ["binary"] }, () => {
  it("reset-body: exit 5 after exactly retries + 1 requests for the page", async () => {
    const server = await startCliServe(["--db", db, "--faults", "reset-body:1"]);
    const result = await runCli(
      ["report", "--from", "2026-10-25", "--to", "2026-10-31", "--dims", "campaign", "--retries", "2"],
      { env: { ADREPORT_CONFIG_DIR: join(dir, "config"), ADREPORT_API_KEY: KEY, ADREPORT_BASE_URL: server.url } },
    );
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/page 1: gave up after 3 attempts/);
    expect(result.stdout).toBe("");
    const faultLines = () =>
      server
        .stderr()
        .split("\n")
        .filter((line) => line.includes("fault:reset-body") && line.includes("page=1&"));
    // serve's stderr reaches this process through a pipe, on its own schedule: wait for the lines, bounded.
    await expect.poll(() => faultLines().length, { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
    expect(faultLines()).toHaveLength(3);
    expect(server.stderr()).not.toMatch(/page=2&/);
    expect(await server.stop()).toBe(0);
  });
});
