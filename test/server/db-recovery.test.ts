/**
 * The database file changing under a running `serve`: truncated then restored (503 with Retry-After
 * meanwhile, then answers again by itself), and replaced by rename (the new file is noticed).
 */
import { copyFileSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { openForWriting, revokeKey } from "../../src/server";
import { FRESHNESS_MS } from "../../src/server/store/types";
import { httpGet } from "../helpers/http";
import { startTestService } from "../helpers/serve";

const QUERY = "/v1/report?from=2026-10-01&to=2026-10-31&metrics=views";

describe("a database truncated, then restored", () => {
  it("answers 503 with Retry-After meanwhile, never 500, and recovers without a restart", async () => {
    const notices: string[] = [];
    let nowMs = 0;
    const service = await startTestService({
      keys: [{ advertiser: "Acme Outdoor", ips: ["127.0.0.1"] }],
      serve: { notice: (line) => notices.push(line), nowMs: () => nowMs },
    });
    const ask = () => httpGet(service.url + QUERY, { key: service.keys[0] });
    expect((await ask()).status).toBe(200);
    const bytes = readFileSync(service.dbPath);

    writeFileSync(service.dbPath, ""); // `: > db`: the same file, now empty
    nowMs += FRESHNESS_MS;
    const unavailable = await ask();
    expect(unavailable.status).toBe(503);
    expect(Number(unavailable.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(unavailable.json).toMatchObject({ error: { status: 503, code: "service_unavailable" } });

    writeFileSync(service.dbPath, bytes); // the same bytes back, in the same file
    expect((await ask()).status).toBe(503); // until the reopen it announced is due
    nowMs += Number(unavailable.headers["retry-after"]) * 1000;
    expect((await ask()).status).toBe(200);
    expect(notices.join("\n")).toMatch(/reopen/);
  });
});

describe("a database replaced by rename", () => {
  it("is noticed at the next look at the file: a key revoked in the new file is refused", async () => {
    let nowMs = 0;
    const service = await startTestService({
      keys: [{ advertiser: "Acme Outdoor", ips: ["127.0.0.1"] }],
      serve: { nowMs: () => nowMs },
    });
    const ask = () => httpGet(service.url + QUERY, { key: service.keys[0] });
    expect((await ask()).status).toBe(200);
    const next = `${service.dbPath}.new`;
    copyFileSync(service.dbPath, next);
    const writer = openForWriting(next, { create: false });
    revokeKey(writer, service.keyIds[0] as number, 1);
    writer.close();
    renameSync(next, service.dbPath); // `mv new.db db`
    expect((await ask()).status).toBe(200);
    nowMs += FRESHNESS_MS;
    expect((await ask()).status).toBe(401);
  });
});
