/**
 * `serve demo --ndjson FILE` stopped by SIGTERM or SIGINT: exit 130, and no file left behind (the process
 * died of the signal, leaving its temporary file beside FILE).
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startInProcess } from "../../helpers/run-cli-in-process";
import { tempDir } from "../../helpers/temp";

describe("serve demo --ndjson interrupted", () => {
  it.each(["SIGTERM", "SIGINT"] as const)("at %s is exit 130 and leaves no file", async (signal) => {
    const dir = tempDir();
    const file = join(dir, "demo.ndjson");
    const run = startInProcess(["serve", "demo", "--ndjson", file, "--days", "60", "--activity", "1"]);
    let ended = false;
    void run.result.then(() => {
      ended = true;
    });
    while (run.signalHandlers() === 0 && !ended) await new Promise((resolve) => setImmediate(resolve));
    run.signal(signal);
    const result = await run.result;
    expect(result.code).toBe(130);
    expect(result.stderr).toBe(`adreport: interrupted; ${file} was left as it was\n`);
    expect(readdirSync(dir)).toEqual([]);
  });
});
