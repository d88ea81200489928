/**
 * `adreport status --max-lag` whose reader goes away (`| head -1`, `| grep -q`): a process, for the pipe it
 * writes into is closed. The alert must not go with the status lines nobody reads.
 */
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { configDirWith } from "../../helpers/config";
import { cliCommand } from "../../helpers/spawn-cli";

/** `count` jobs whose newest day is long past: each lags whatever day the test runs on. */
function laggingJobs(count: number): string {
  const config = configDirWith({}, {});
  const state = join(config, "state");
  mkdirSync(state, { mode: 0o700 });
  for (let i = 0; i < count; i += 1) {
    const id = (0xd0000000 + i).toString(16);
    const document = {
      version: 1,
      id,
      job: {
        profile: null,
        baseUrl: "http://127.0.0.1:8080",
        dimensions: ["campaign", "date"],
        metrics: ["clicks"],
        granularity: "day",
        campaignId: null,
        adId: null,
        target: { kind: "files", template: `/data/a-rather-long-folder-name-for-each-job/${id}/{date}.csv` },
      },
      lastDay: "2026-01-05",
      days: { "2026-01-05": { rows: 2, sums: { clicks: 10 }, run: "20260106T060000Z-abcdef", requests: 1 } },
    };
    writeFileSync(join(state, `${id}.json`), JSON.stringify(document), { mode: 0o600 });
  }
  return config;
}

it("the alert is on stderr though stdout's reader went away before the status was written", async () => {
  // More status lines than a pipe holds (64 KiB): the write waits for a reader that is gone.
  const config = laggingJobs(1200);
  const [command, argv] = cliCommand(["status", "--max-lag", "1d"]);
  const child = spawn(command, argv, {
    env: { ...process.env, ADREPORT_CONFIG_DIR: config },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.destroy();
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  await new Promise((resolve) => child.on("close", resolve));
  expect(stderr).toMatch(/^adreport: 1200 of 1200 jobs need a look: d0000000 \(lagging, stalled\), /);
  expect(stderr).toMatch(/\nhint: adreport status d0000000 shows why\n$/);
});
