/**
 * The pace a key keeps on the host (state/pace-ledger.ts) after a run that gave up: a service of another
 * make than `serve` announcing `q=1;w=6` (one request every 6.1 s to the client), a run that ends early
 * (--max-time, SIGTERM), then runs of the same key against the same service, which now announces nothing. The ended run
 * leaves only the request it sent: the next one waits at most what remains of that request's interval, says
 * so before waiting, and ends at once when the wait passes its --max-time. Counts and bounds, not speed.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FilePaceLedger, paceLedgerPath } from "../../../src/state/pace-ledger";
import { type BucketServer, startBucketServer } from "../../helpers/bucket-server";
import { runInProcess, startInProcess } from "../../helpers/run-cli-in-process";
import { tempDir } from "../../helpers/temp";

const KEY = `adr_${"p".repeat(43)}`;
/**
 * The interval `q=1;w=6` means to the client (it keeps 2% under the announced pace). What is left of it
 * when the third run starts must still be a wait a person notices (LONG_WAIT_MS, 5 s), or -q says nothing.
 */
const INTERVAL_MS = 6_120;
let server: BucketServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ARGS = ["report", "-q", "--dims", "campaign", "--format", "ndjson", "--page-size", "10"];

function env(config: string, url: string) {
  return { ADREPORT_CONFIG_DIR: config, ADREPORT_API_KEY: KEY, ADREPORT_BASE_URL: url };
}

/** When the key's shared schedule would let a request go that knows no pace of its own (epoch ms). */
async function nextFree(config: string, url: string): Promise<number> {
  const ledger = new FilePaceLedger(paceLedgerPath(join(config, "state", "pace"), url, KEY));
  const now = Date.now();
  return (await ledger.take({ now, intervalMs: 0, burst: 1, floor: 0, hold: 0 })).sendAt;
}

async function slowService(): Promise<BucketServer> {
  // 1/6 token a second, one at most: `RateLimit-Policy: "default";q=1;w=6`.
  return startBucketServer({ rate: 1 / 6, burst: 1, headers: "ietf", rows: 100 });
}

describe("a run that gives up leaves the key's pace to the requests it sent", () => {
  it("after --max-time: the next run ends at once when the pace passes its own --max-time, the one after waits what is left of one interval and says so first", async () => {
    server = await slowService();
    const config = tempDir();
    const first = await runInProcess([...ARGS, "--max-time", "1s"], { env: env(config, server.url) });
    expect(first.code).toBe(5);
    expect(server.arrivals).toHaveLength(1);
    const sent = server.arrivals[0]?.at as number;
    // Whatever the first run reserved, the key's schedule holds no one past its one request's interval.
    expect(await nextFree(config, server.url)).toBeLessThanOrEqual(sent + INTERVAL_MS + 500);

    server.configure({ headers: "none", rate: 1000, burst: 1000 });
    const second = await runInProcess([...ARGS, "--max-time", "2s"], { env: env(config, server.url) });
    expect(second.code).toBe(5);
    expect(second.stderr).toMatch(
      /^adreport: the runs of this key on this host keep one pace \(1 request every 6\.1 s\); it holds this run for \d+ s \(until .* UTC\), longer than the 2 s left of the time allowed$/m,
    );
    expect(second.stderr).not.toMatch(/first page had not come/);
    expect(server.arrivals).toHaveLength(1);

    const third = await runInProcess(ARGS, { env: env(config, server.url) });
    expect(third.code, third.stderr).toBe(0);
    expect(third.stdout.trim().split("\n")).toHaveLength(100);
    expect(third.stderr).toMatch(
      /^adreport: waiting \d+ s \(until \d\d:\d\d:\d\d UTC\): the runs of this key on this host keep one pace/m,
    );
    const resumed = server.arrivals[1]?.at as number;
    expect(resumed - sent).toBeGreaterThanOrEqual(INTERVAL_MS - 100);
    expect(resumed - sent).toBeLessThanOrEqual(INTERVAL_MS + 1500);
  }, 40_000);

  it("after SIGTERM: nothing it had queued is left in the key's schedule", async () => {
    server = await slowService();
    const config = tempDir();
    const run = startInProcess(ARGS, { env: env(config, server.url) });
    while (server.arrivals.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    // The answer in, the pages after it queued behind the pace, then the signal.
    await new Promise((resolve) => setTimeout(resolve, 300));
    run.signal("SIGTERM");
    const result = await run.result;
    expect(result.code).not.toBe(0);
    expect(server.arrivals).toHaveLength(1);
    const sent = server.arrivals[0]?.at as number;
    const free = await nextFree(config, server.url);
    expect(free).toBeGreaterThanOrEqual(sent + INTERVAL_MS - 200);
    expect(free).toBeLessThanOrEqual(sent + INTERVAL_MS + 500);
  });
});
