/**
 * `node --import tsx heap-bound-child.ts [export|accounts|serve]`: applies that heap bound (src/cli/memory.ts), then
 * allocates as an export does (a page of rows kept while the next one is made, garbage by the megabyte) and
 * prints the largest young generation V8 reached, in bytes, as JSON on stdout.
 */
import { getHeapSpaceStatistics } from "node:v8";
import { boundHeap, type HeapKind } from "../../src/cli/memory";

const youngBytes = () => getHeapSpaceStatistics().find((space) => space.space_name === "new_space")?.space_size ?? 0;

async function main(): Promise<void> {
  boundHeap((process.argv[2] ?? "export") as HeapKind);
  let largest = 0;
  let page: object[] = [];
  for (let round = 0; round < 1500; round += 1) {
    // A page of 1,000 rows of a few small objects each, kept until the next one is made.
    const next: object[] = [];
    for (let row = 0; row < 1000; row += 1) next.push({ id: row, name: `ad ${round}-${row}`, values: [row, round] });
    page = next;
    // The gc entries that let boundHeap decide are delivered between tasks, as between an export's pages.
    await new Promise((resolve) => setImmediate(resolve));
    largest = Math.max(largest, youngBytes());
  }
  process.stdout.write(`${JSON.stringify({ largest, kept: page.length })}\n`);
}

void main();
