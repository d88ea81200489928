// A reporting service that only replays fixed page bodies, so that a benchmark of the client measures the
// client: `GET /v1/report?...&page=N` answers the file DIR/N.json whatever the other parameters, keep-alive.
// Usage: node page-replay.mjs DIR; prints its URL on stdout.
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";

const dir = process.argv[2];
const pages = new Map();
for (const name of readdirSync(dir)) {
  if (name.endsWith(".json")) pages.set(name.slice(0, -5), readFileSync(join(dir, name)));
}
const server = createServer((request, response) => {
  const page = new URL(request.url, "http://x").searchParams.get("page") ?? "1";
  const body = pages.get(page);
  if (!body) {
    response.writeHead(404, { "content-type": "application/json" }).end('{"error":{"code":"not_found"}}');
    return;
  }
  response.writeHead(200, { "content-type": "application/json", "content-length": body.length }).end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${server.address().port}`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
