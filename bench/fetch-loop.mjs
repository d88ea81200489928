// The plain baseline of the export benchmark: every page, one after another, on one keep-alive connection
// (Node's fetch), bodies read as bytes and written to /dev/null. Run as its own process, as the CLI is.
// Usage: node fetch-loop.mjs BASE KEY QUERY [PAGES] [ndjson]; without PAGES (or with "all") each body is
// parsed for meta.has_more; with "ndjson" each page's rows are written as NDJSON lines instead of its bytes
// (JSON.stringify of each row: what a plain client that exports the pages it checks does).
import { writeFileSync } from "node:fs";

const [base, key, query, pages, write] = process.argv.slice(2);
const last = pages === undefined || pages === "all" ? Number.POSITIVE_INFINITY : Number(pages);
const ndjson = write === "ndjson";
for (let page = 1; page <= last; page += 1) {
  const response = await fetch(`${base}/v1/report?${query}&page=${page}&limit=1000`, {
    headers: { authorization: `Bearer ${key}` },
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (ndjson) {
    const body = JSON.parse(new TextDecoder().decode(bytes));
    writeFileSync("/dev/null", body.data.map((row) => `${JSON.stringify(row)}\n`).join(""));
    if (!body.meta.has_more) break;
    continue;
  }
  writeFileSync("/dev/null", bytes);
  if (last === Number.POSITIVE_INFINITY && !JSON.parse(new TextDecoder().decode(bytes)).meta.has_more) break;
}
