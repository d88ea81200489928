/**
 * `serve load` stopped by SIGTERM or SIGINT: exit 130 as README's table says (the process died of the
 * signal, 143 for SIGTERM), the file being loaded left out whole, and the files after it not started.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { testBackends } from "../../helpers/backends";
import { runInProcess, startInProcess } from "../../helpers/run-cli-in-process";
import { tempDir } from "../../helpers/temp";

function dataFile(name: string, hours: number): string {
  const file = join(tempDir(), name);
  const lines: string[] = [];
  for (let h = 0; h < hours; h += 1) {
    const hour = new Date(Date.UTC(2026, 9, 1) + h * 3_600_000).toISOString().replace(".000Z", "Z");
    lines.push(
      JSON.stringify({
        advertiser: "Acme",
        campaign_id: 1,
        campaign: "C",
        ad_id: 2,
        ad: "A",
        hour,
        views: 3,
        clicks: 1,
        bot_clicks: 0,
        conversions: 0,
        spending: 0.25,
      }),
    );
  }
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

describe.each(await testBackends())("on $name", (backend) => {
  beforeEach((context) => backend.skipUnavailable(context));

  it.each(["SIGTERM", "SIGINT"] as const)("stops at %s with exit 130, keeping nothing of the file", async (signal) => {
    const db = await backend.newDb();
    expect((await runInProcess(["serve", "init", "--db", db])).code).toBe(0);
    const first = dataFile("first.ndjson", 500);
    const second = dataFile("second.ndjson", 500);
    const run = startInProcess(["serve", "load", first, second, "--db", db]);
    let ended = false;
    void run.result.then(() => {
      ended = true;
    });
    while (run.signalHandlers() === 0 && !ended) await new Promise((resolve) => setImmediate(resolve));
    run.signal(signal);
    const result = await run.result;
    expect(result.code).toBe(130);
    expect(result.stderr).toMatch(/^adreport: .*first\.ndjson.*interrupted/m);
    expect(result.stderr).not.toMatch(/^adreport serve: loaded/m);
    // Nothing was loaded: no advertiser to issue a key for.
    const issued = await runInProcess(["serve", "key", "issue", "--db", db, "--advertiser", "Acme"]);
    expect(issued.stderr).toContain("no advertiser");
  });
});
