// The plain baseline of the export benchmark: every page, one after another, on one keep-alive connection
// (Node's fetch), bodies read as bytes and written to /dev/null. Run as its own process, as the CLI is.
// Usage: node fetch-loop.mjs BASE KEY QUERY [PAGES]; without PAGES each body is parsed for meta.has_more.
import { writeFileSync } from "node:fs";

const [base, key, query, pages] = process.argv.slice(2);
const last = pages === undefined ? Number.POSITIVE_INFINITY : Number(pages);
for (let page = 1; page <= last; page += 1) {
  const response = await fetch(`${base}/v1/report?${query}&page=${page}&limit=1000`, {
    headers: { authorization: `Bearer ${key}` },
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  writeFileSync("/dev/null", bytes);
  if (pages === undefined && !JSON.parse(new TextDecoder().decode(bytes)).meta.has_more) break;
}
