/**
 * A run killed with SIGKILL leaves the key's pace (state/pace-ledger.ts) holding no one past the interval of
 * the one request it sent: the pages it had queued behind the service's pace were never written there. Only
 * a process can be killed so; the other ways a run ends are in test/commands/report/pace-shared.test.ts.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { FilePaceLedger, paceLedgerPath } from "../../src/state/pace-ledger";
import { type BucketServer, startBucketServer } from "../helpers/bucket-server";
import { cliCommand, environment } from "../helpers/spawn-cli";
import { tempDir } from "../helpers/temp";

const KEY = `adr_${"k".repeat(43)}`;
let server: BucketServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

it("a run killed with SIGKILL behind a pace of one request every 10 s holds the next run at most that interval", {
  tags: ["binary"],
}, async () => {
  server = await startBucketServer({ rate: 0.1, burst: 1, headers: "ietf", rows: 100 });
  const config = tempDir();
  const [cmd, argv] = cliCommand(["report", "-q", "--dims", "campaign", "--format", "ndjson", "--page-size", "10"]);
  const child = spawn(cmd, argv, {
    env: environment({ ADREPORT_CONFIG_DIR: config, ADREPORT_API_KEY: KEY, ADREPORT_BASE_URL: server.url }),
    stdio: "ignore",
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  while (server.arrivals.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
  // The answer in, the pages after it queued behind the pace, then the kill.
  await new Promise((resolve) => setTimeout(resolve, 500));
  child.kill("SIGKILL");
  await exited;
  expect(server.arrivals).toHaveLength(1);
  const sent = server.arrivals[0]?.at as number;
  const ledger = new FilePaceLedger(paceLedgerPath(join(config, "state", "pace"), server.url, KEY));
  const now = Date.now();
  const turn = await ledger.take({ now, intervalMs: 0, burst: 1, floor: 0, hold: 0 });
  // The pace the service set is kept for the key's next run, and nothing more.
  expect(turn.sendAt).toBeGreaterThanOrEqual(sent + 10_000);
  expect(turn.sendAt).toBeLessThanOrEqual(sent + 10_200 + 500);
});
