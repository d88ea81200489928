/** The harness's waitFor: resolves on the line a test waits for, rejects when the command returns first. */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runInProcess, startInProcess } from "../helpers/run-cli-in-process";
import { tempDir } from "../helpers/temp";

describe("in-process harness: waitFor", () => {
  it("resolves with the output once it matches, while the command still runs", async () => {
    const db = join(tempDir(), "x.db");
    expect((await runInProcess(["serve", "init", "--db", db])).code).toBe(0);
    const started = startInProcess(["serve", "--db", db, "--port", "0", "--quiet"]);
    const stdout = await started.waitFor("stdout", /^http:\/\/127\.0\.0\.1:\d+\n/);
    expect(stdout).toBe(started.stdout());
    expect(await started.waitFor("stderr", /listening on/)).toContain(stdout.trim());
    started.signal("SIGTERM");
    expect((await started.result).code).toBe(0);
  });

  it("rejects with the command's stderr when it returns before the output matches", async () => {
    const started = startInProcess(["serve", "--db", join(tempDir(), "missing.db"), "--port", "0"]);
    await expect(started.waitFor("stdout", /\n/)).rejects.toThrow(/returned 2 before .*missing\.db/);
  });
});
