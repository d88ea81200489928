/**
 * A process that shares a pace ledger file (test/unit/state/pace-ledger.test.ts runs two at once):
 * `node --import tsx pace-ledger-child.ts FILE COUNT`. Prints `ready`, waits for a line on stdin, then
 * reserves COUNT slots of 20 ms as fast as it can and prints their send times as JSON.
 */
import { FilePaceLedger } from "../../src/state/pace-ledger";

async function main(): Promise<void> {
  const [file, count] = process.argv.slice(2);
  const ledger = new FilePaceLedger(file as string);
  process.stdout.write("ready\n");
  await new Promise<void>((resolve) => process.stdin.once("data", () => resolve()));
  const now = Date.now();
  const times: number[] = [];
  for (let i = 0; i < Number(count); i += 1)
    times.push(await ledger.reserve({ now, intervalMs: 20, burst: 1, floor: 0 }));
  process.stdout.write(`${JSON.stringify(times)}\n`);
  process.stdin.destroy();
}

void main();
