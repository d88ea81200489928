/** The in-process harness itself: each seam it offers reaches the command. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KEY, mockAgent, ORIGIN, rowsOf, servePages } from "../helpers/mock-api";
import { runInProcess, startInProcess } from "../helpers/run-cli-in-process";
import { tempDir } from "../helpers/temp";

describe("in-process harness", () => {
  it("captures stdout and the exit code", async () => {
    const result = await runInProcess(["--version"]);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout.trim()).toMatch(/^adreport \d+\.\d+\.\d+/);
  });

  it("turns a bad flag into exit 2 with one line on stderr", async () => {
    const result = await runInProcess(["report", "--no-such-flag"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^adreport: unknown option '--no-such-flag'/);
  });

  it("keeps the config in a temporary HOME unless told otherwise", async () => {
    const home = tempDir();
    expect((await runInProcess(["config", "set", "page-size", "250"], { env: { HOME: home } })).code).toBe(0);
    expect(existsSync(join(home, ".config", "adreport", "config.json"))).toBe(true);
    const got = await runInProcess(["config", "get", "page-size"], { env: { HOME: home } });
    expect(got.stdout.trim()).toBe("250");
    expect((await runInProcess(["config", "get", "page-size"])).stdout.trim()).toBe("1000");
  });

  it("sends requests through the dispatcher", async () => {
    const mock = mockAgent();
    servePages(mock, rowsOf(3));
    const cwd = tempDir();
    const result = await runInProcess(
      [
        "report",
        "--from",
        "2026-10-01",
        "--to",
        "2026-10-02",
        "--dims",
        "campaign",
        "--format",
        "csv",
        "-o",
        join(cwd, "out.csv"),
      ],
      { env: { ADREPORT_BASE_URL: ORIGIN, ADREPORT_API_KEY: KEY }, dispatcher: mock.agent, cwd },
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(readFileSync(join(cwd, "out.csv"), "utf8").split("\n")[0]).toMatch(/^campaign_id/);
    expect(mock.seen[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    mock.agent.assertNoPendingInterceptors();
  });

  it("delivers a signal to the command's handlers", async () => {
    const db = join(tempDir(), "x.db");
    expect((await runInProcess(["serve", "init", "--db", db])).code).toBe(0);
    const started = startInProcess(["serve", "--db", db, "--port", "0", "--quiet"]);
    await expect.poll(() => started.signalHandlers(), { timeout: 20_000 }).toBeGreaterThan(0);
    started.signal("SIGTERM");
    expect((await started.result).code).toBe(0);
  });
});
