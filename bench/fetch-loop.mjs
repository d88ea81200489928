// The plain baseline of the export benchmark: every page, one after another, with Node's fetch, bodies
// written to /dev/null. Run as its own process, as the CLI is. Usage: node fetch-loop.mjs BASE KEY QUERY
import { writeFileSync } from "node:fs";

const [base, key, query] = process.argv.slice(2);
for (let page = 1; ; page += 1) {
  const response = await fetch(`${base}/v1/report?${query}&page=${page}&limit=1000`, {
    headers: { authorization: `Bearer ${key}` },
  });
  const text = await response.text();
  writeFileSync("/dev/null", text);
  if (!JSON.parse(text).meta.has_more) break;
}
