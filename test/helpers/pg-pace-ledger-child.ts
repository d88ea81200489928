/**
 * A host that shares a key's pace through PostgreSQL (test/unit/targets/postgres/pace-ledger.test.ts runs
 * two at once): `node --import tsx pg-pace-ledger-child.ts URL FINGERPRINT COUNT`. Prints `ready`, waits for
 * a line on stdin, then takes COUNT turns of 20 ms as fast as the shared schedule gives them and prints their
 * times as JSON. Its own pace (when the database fails it) is a schedule of its own, which the test would see.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { MemoryPaceLedger } from "../../src/core/pace-slot";
import { PostgresPaceLedger } from "../../src/targets/postgres/pace-ledger";

async function main(): Promise<void> {
  const [url, fingerprint, count] = process.argv.slice(2);
  const ledger = new PostgresPaceLedger(url as string, fingerprint as string, 10_000, new MemoryPaceLedger());
  process.stdout.write("ready\n");
  await new Promise<void>((resolve) => process.stdin.once("data", () => resolve()));
  const times: number[] = [];
  while (times.length < Number(count)) {
    const now = Date.now();
    const turn = await ledger.take({ now, intervalMs: 20, burst: 1, floor: 0, hold: 0 });
    if (turn.sendAt <= now) times.push(now);
    else await sleep(turn.sendAt - now);
  }
  process.stdout.write(`${JSON.stringify(times)}\n`);
  process.stdin.destroy();
}

void main();
