/**
 * `serve load --from-export` stopped by SIGTERM while it converts the export: exit 130, nothing loaded,
 * and its temporary load file removed (the process died of the signal and left a copy of the data in
 * the temporary folder).
 */
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runInProcess, startInProcess } from "../../helpers/run-cli-in-process";
import { tempDir } from "../../helpers/temp";

const savedTmp = process.env.TMPDIR;
afterEach(() => {
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
});

describe("serve load --from-export interrupted", () => {
  it("while converting is exit 130 and leaves no temporary file", async () => {
    const dir = tempDir();
    const exportFile = join(dir, "export.ndjson");
    const rows: string[] = [];
    for (let h = 0; h < 2000; h += 1) {
      rows.push(
        JSON.stringify({
          dimensions: { campaign_id: 1, name: "Spring", date: 1_790_000_000 - (1_790_000_000 % 3600) + h * 3600 },
          metrics: { views: 3, clicks: 1, spending: 0.5, conversions: 0 },
        }),
      );
    }
    writeFileSync(exportFile, `${rows.join("\n")}\n`);
    const db = join(dir, "x.db");
    expect((await runInProcess(["serve", "init", "--db", db])).code).toBe(0);
    const temporary = join(dir, "tmp");
    mkdirSync(temporary);
    process.env.TMPDIR = temporary;
    const run = startInProcess(["serve", "load", "--from-export", exportFile, "--db", db]);
    let ended = false;
    void run.result.then(() => {
      ended = true;
    });
    while (run.signalHandlers() === 0 && !ended) await new Promise((resolve) => setImmediate(resolve));
    run.signal("SIGTERM");
    const result = await run.result;
    expect(result.code).toBe(130);
    // Stopped while converting: before the notes about the converted rows, and before any load.
    expect(result.stderr).toBe(`adreport: interrupted; nothing of ${exportFile} was loaded\n`);
    expect(readdirSync(temporary).filter((name) => name.startsWith("adreport-load-"))).toEqual([]);
    const issued = await runInProcess(["serve", "key", "issue", "--db", db, "--advertiser", "Imported"]);
    expect(issued.stderr).toContain("no advertiser");
  });
});
