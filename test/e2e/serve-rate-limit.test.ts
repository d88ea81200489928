/** The real `serve --rate-limit` process: a key past its bucket is answered 429 with Retry-After. */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { httpGet } from "../helpers/http";
import { runCli, startCliServe } from "../helpers/spawn-cli";
import { tempDir } from "../helpers/temp";

const dir = tempDir();
const db = join(dir, "rate.db");
const demo = await runCli(["serve", "demo", "--db", db, "--days", "2", "--end", "2026-11-01"]);
if (demo.code !== 0) throw new Error(demo.stderr);
const KEY = (
  await runCli(["serve", "key", "issue", "--db", db, "--advertiser", "Acme Outdoor", "--ip", "127.0.0.1"])
).stdout.trim();

describe("serve --rate-limit in its own process", () => {
  it("answers the key's third request in a minute 429 with the contract's body and Retry-After", async () => {
    const server = await startCliServe(["--db", db, "--rate-limit", "2/min"]);
    const url = `${server.url}/v1/report?from=2026-10-30&to=2026-10-31&metrics=views`;
    expect((await httpGet(url, { key: KEY })).status).toBe(200);
    expect((await httpGet(url, { key: KEY })).headers.ratelimit).toMatch(/^"default";r=0;t=\d+$/);
    const refused = await httpGet(url, { key: KEY });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(refused.json).toMatchObject({ error: { status: 429, code: "rate_limited" } });
    expect(await server.stop()).toBe(0);
  });
});
