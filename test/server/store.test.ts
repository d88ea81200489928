/** The operator side: loading NDJSON (idempotent, all or nothing, errors by line) and read-only serving. */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { issueKey, loadNdjsonInto, openForWriting, openOperatorStore, startServer } from "../../src/server";
import { FRESHNESS_MS } from "../../src/server/store/types";
import { sqlNumber, testBackends } from "../helpers/backends";
import { httpGet } from "../helpers/http";
import { demoNdjson } from "../helpers/serve";
import { tempDir } from "../helpers/temp";

const dir = tempDir();
const LINE = {
  advertiser: "Acme",
  campaign_id: 1,
  campaign: "Spring",
  ad_id: 10,
  ad: "Banner A",
  hour: "2026-11-01T13:00:00Z",
  views: 120,
  clicks: 7,
  bot_clicks: 1,
  spending: 3.25,
  conversions: 1,
};
const KEYWORD_LINE = { ...LINE, keyword_id: 100, keyword: "running shoes", conversions: undefined };

function ndjson(name: string, lines: unknown[]): string {
  const path = join(dir, name);
  writeFileSync(path, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
  return path;
}

async function counts(db: string) {
  return {
    adHours: await sqlNumber(db, "SELECT count(*) AS n FROM ad_hours"),
    keywordHours: await sqlNumber(db, "SELECT count(*) AS n FROM keyword_hours"),
    views: await sqlNumber(db, "SELECT coalesce(sum(views), 0) AS n FROM campaign_days"),
    keywordViews: await sqlNumber(db, "SELECT coalesce(sum(views), 0) AS n FROM keyword_days"),
  };
}

/** Loads a file into the database (a SQLite path or a PostgreSQL URL), creating its layout first. */
async function load(db: string, file: string) {
  const store = await openOperatorStore(db, { create: true });
  try {
    return await loadNdjsonInto(store, file);
  } finally {
    await store.close();
  }
}

describe.each(await testBackends())("on $name", (backend) => {
  beforeEach((context) => backend.skipUnavailable(context));
  describe("serve load", () => {
    it("loads the example line of the contract, and loading it again changes nothing", async () => {
      const dbPath = await backend.newDb();
      const file = ndjson("one.ndjson", [LINE, KEYWORD_LINE]);
      await load(dbPath, file);
      const first = await counts(dbPath);
      expect(first).toEqual({ adHours: 1, keywordHours: 1, views: 120, keywordViews: 120 });
      await load(dbPath, file);
      expect(await counts(dbPath)).toEqual(first);
    });

    it("replaces an hour loaded again with new values, rollups included", async () => {
      const dbPath = await backend.newDb();
      await load(dbPath, ndjson("a.ndjson", [LINE]));
      await load(dbPath, ndjson("b.ndjson", [{ ...LINE, views: 5 }]));
      expect((await counts(dbPath)).views).toBe(5);
    });

    it.each([
      [{ ...LINE, views: -1 }, "views"],
      [{ ...LINE, views: 1.5 }, "views"],
      [{ ...LINE, hour: "2026-11-01T13:30:00Z" }, "hour"],
      [{ ...LINE, hour: "yesterday" }, "hour"],
      [{ ...LINE, spending: 1.0000001 }, "spending"],
      [{ ...LINE, bot_clicks: 8 }, "bot_clicks"],
      [{ ...LINE, view: 3 }, 'unknown field "view"'],
      [{ ...KEYWORD_LINE, conversions: 1 }, "keyword lines carry no conversions"],
      [{ ...LINE, advertiser: "" }, "advertiser"],
      [{ ...LINE, ad_id: 0 }, "ad_id"],
    ])("refuses a bad line by number and loads nothing of the file: %j", async (bad, mention) => {
      const dbPath = await backend.newDb();
      const file = ndjson("bad.ndjson", [LINE, { ...LINE, hour: "2026-11-01T14:00:00Z" }, bad]);
      await expect(load(dbPath, file)).rejects.toThrow(
        new RegExp(`bad\\.ndjson:3: .*${mention.replace(/[.*+?^${}()|[\]\\"]/g, "\\$&")}`),
      );
      expect((await counts(dbPath)).adHours).toBe(0);
    });

    it("refuses a line that is not JSON, naming it", async () => {
      const path = join(dir, "broken.ndjson");
      writeFileSync(path, `${JSON.stringify(LINE)}\n{"advertiser":\n`);
      await expect(load(await backend.newDb(), path)).rejects.toThrow("broken.ndjson:2: not a JSON value");
    });

    it("refuses to move an ad to another campaign's advertiser", async () => {
      const dbPath = await backend.newDb();
      await load(dbPath, ndjson("c1.ndjson", [LINE]));
      const moved = { ...LINE, advertiser: "Other", campaign_id: 2, hour: "2026-11-01T15:00:00Z" };
      await expect(load(dbPath, ndjson("c2.ndjson", [moved]))).rejects.toThrow(
        "c2.ndjson:1: ad 10 already belongs to another campaign",
      );
      await expect(load(dbPath, ndjson("c3.ndjson", [{ ...LINE, advertiser: "Other" }]))).rejects.toThrow(
        "campaign 1 already belongs to another advertiser",
      );
    });

    it("skips blank lines and a byte-order mark", async () => {
      const path = join(dir, "bom.ndjson");
      writeFileSync(
        path,
        `\uFEFF${JSON.stringify(LINE)}\r\n\r\n${JSON.stringify({ ...LINE, hour: "2026-11-01T14:00:00Z" })}\r\n`,
      );
      const result = await load(await backend.newDb(), path);
      expect(result.adHours).toBe(2);
    });
  });

  describe("changes made while serving", () => {
    it("take effect at the next look at the database: a revoked key, newly loaded data", async () => {
      const dbPath = await backend.newDb();
      await load(dbPath, ndjson("live1.ndjson", [LINE]));
      const writer = await openOperatorStore(dbPath, { create: false });
      const issued = await writer.issueKey({ advertiser: "Acme", ips: ["127.0.0.1"], now: 0 });
      let nowMs = 0;
      const server = await startServer({
        dbPath,
        host: "127.0.0.1",
        port: 0,
        trustProxy: [],
        cacheRows: 1000,
        nowMs: () => nowMs,
      });
      const url = `${server.url}/v1/report?from=2026-11-01&to=2026-11-01&metrics=views`;
      const views = async () =>
        ((await httpGet(url, { key: issued.key })).json as { data: Array<{ metrics: { views: number } }> }).data[0]
          ?.metrics.views;
      try {
        expect(await views()).toBe(120);
        await loadNdjsonInto(writer, ndjson("live2.ndjson", [{ ...LINE, hour: "2026-11-01T14:00:00Z", views: 5 }]));
        expect(await views()).toBe(120); // what was read is trusted until the next look
        nowMs += FRESHNESS_MS;
        expect(await views()).toBe(125);
        await writer.revokeKey(issued.id, 1);
        nowMs += FRESHNESS_MS;
        expect((await httpGet(url, { key: issued.key })).status).toBe(401);
      } finally {
        await writer.close();
        await server.close();
      }
    });
  });
});

describe("serve never writes the database", () => {
  it("leaves the file's bytes unchanged after serving requests", async () => {
    const dbPath = join(dir, "readonly.db");
    await load(dbPath, demoNdjson(dir).path);
    const hash = () => createHash("sha256").update(readFileSync(dbPath)).digest("hex");
    const before = hash();
    const server = await startServer({ dbPath, host: "127.0.0.1", port: 0, trustProxy: [], cacheRows: 1000 });
    await httpGet(`${server.url}/v1/report?from=2026-10-01&to=2026-10-31&metrics=views`);
    await httpGet(`${server.url}/v1/report?from=2026-10-01&to=2026-10-31&metrics=views`, {
      key: `adr_${"a".repeat(43)}`,
    });
    await server.close();
    expect(hash()).toBe(before);
  });
});

describe("a report cache smaller than the reports", () => {
  it("still pages every report correctly while reports evict each other", async () => {
    const dbPath = join(dir, "tiny-cache.db");
    await load(dbPath, demoNdjson(dir).path);
    const writer = openForWriting(dbPath, { create: false });
    const issued = issueKey(writer, { advertiser: "Acme Outdoor", ips: ["127.0.0.1"], now: 0 });
    writer.close();
    const server = await startServer({ dbPath, host: "127.0.0.1", port: 0, trustProxy: [], cacheRows: 3 });
    const page = async (dims: string, n: number) => {
      const url = `${server.url}/v1/report?from=2026-10-01&to=2026-10-31&metrics=views&dimensions=${dims}&limit=7&page=${n}`;
      return (await httpGet(url, { key: issued.key })).json as { meta: { total: number }; data: unknown[] };
    };
    try {
      const whole = async (dims: string) => {
        const first = await page(dims, 1);
        const all = [...first.data];
        for (let n = 2; (n - 1) * 7 < first.meta.total; n += 1) {
          all.push(...(await page(dims, n)).data);
          await page(dims === "ad,date" ? "campaign,date" : "ad,date", n); // another report in between
        }
        return all;
      };
      const adDate = await whole("ad,date");
      const big = await page("ad,date", 1);
      expect(adDate).toHaveLength(big.meta.total);
      expect(new Set(adDate.map((r) => JSON.stringify(r))).size).toBe(adDate.length);
    } finally {
      await server.close();
    }
  });
});
