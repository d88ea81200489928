/**
 * The database file changing under a running `serve`: truncated then restored (503 with Retry-After
 * meanwhile, then answers again by itself), and replaced by rename (the new file is noticed).
 */
import { copyFileSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { openForWriting, revokeKey } from "../../src/server";
import { type HttpResult, httpGet } from "../helpers/http";
import { startTestService } from "../helpers/serve";

const QUERY = "/v1/report?from=2026-10-01&to=2026-10-31&metrics=views";

/** Asks until `done` holds for an answer (bounded), and returns every answer seen. */
async function askUntil(ask: () => Promise<HttpResult>, done: (r: HttpResult) => boolean): Promise<HttpResult[]> {
  const seen: HttpResult[] = [];
  for (let i = 0; i < 600; i += 1) {
    const result = await ask();
    seen.push(result);
    if (done(result)) return seen;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`never reached; last status ${seen.at(-1)?.status}`);
}

describe("a database truncated, then restored", () => {
  it("answers 503 with Retry-After meanwhile, never 500, and recovers without a restart", async () => {
    const notices: string[] = [];
    const service = await startTestService({
      keys: [{ advertiser: "Acme Outdoor", ips: ["127.0.0.1"] }],
      serve: { notice: (line) => notices.push(line) },
    });
    const ask = () => httpGet(service.url + QUERY, { key: service.keys[0] });
    expect((await ask()).status).toBe(200);
    const bytes = readFileSync(service.dbPath);

    writeFileSync(service.dbPath, ""); // `: > db`: the same file, now empty
    const broken = await askUntil(ask, (r) => r.status !== 200);
    const unavailable = broken.at(-1) as HttpResult;
    expect(unavailable.status).toBe(503);
    expect(Number(unavailable.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(unavailable.json).toMatchObject({ error: { status: 503, code: "service_unavailable" } });

    writeFileSync(service.dbPath, bytes); // the same bytes back, in the same file
    const recovering = await askUntil(ask, (r) => r.status === 200);
    for (const r of recovering.slice(0, -1)) expect(r.status).toBe(503);
    expect(notices.join("\n")).toMatch(/reopen/);
  });
});

describe("a database replaced by rename", () => {
  it("is noticed: a key revoked in the new file is refused", async () => {
    const service = await startTestService({ keys: [{ advertiser: "Acme Outdoor", ips: ["127.0.0.1"] }] });
    const ask = () => httpGet(service.url + QUERY, { key: service.keys[0] });
    expect((await ask()).status).toBe(200);
    const next = `${service.dbPath}.new`;
    copyFileSync(service.dbPath, next);
    const writer = openForWriting(next, { create: false });
    revokeKey(writer, service.keyIds[0] as number, 1);
    writer.close();
    renameSync(next, service.dbPath); // `mv new.db db`
    const answers = await askUntil(ask, (r) => r.status === 401);
    for (const r of answers.slice(0, -1)) expect(r.status).toBe(200);
  });
});
