/**
 * A process that shares a pace ledger file (test/unit/state/pace-ledger.test.ts runs two at once):
 * `node --import tsx pace-ledger-child.ts FILE COUNT`. Prints `ready`, waits for a line on stdin, then
 * takes COUNT turns of 20 ms as fast as the shared schedule gives them and prints their times as JSON.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { FilePaceLedger } from "../../src/state/pace-ledger";

async function main(): Promise<void> {
  const [file, count] = process.argv.slice(2);
  const ledger = new FilePaceLedger(file as string);
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
