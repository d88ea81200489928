/**
 * Memory a key holder can make `serve` hold is bounded: the caches count keys, values and a per-entry
 * overhead against `cacheMb`, empty reports included, and a page is cached under its parsed query, so
 * spelling one query many ways (zero-padded numbers, padding parameters) makes one entry, not many.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { testBackends } from "../helpers/backends";
import { injected } from "../helpers/http";
import { startTestService } from "../helpers/serve";

const CACHE_MB = 0.25;
const BUDGET = Math.floor(CACHE_MB * 1024 * 1024);
const REPORT = "/v1/report?from=2026-10-01&to=2026-10-31&metrics=views&dimensions=campaign";

describe.each(await testBackends())("on $name", (backend) => {
  beforeEach((context) => backend.skipUnavailable(context));
  async function service() {
    const s = await startTestService({
      backend,
      keys: [{ advertiser: "Acme Outdoor", ips: ["127.0.0.1"] }],
      serve: { cacheMb: CACHE_MB },
    });
    return { ...s, key: s.keys[0] as string, get: injected(s.server), usage: () => s.server.store.cacheUsage() };
  }

  describe("one query spelled many ways is one cache entry", () => {
    it("page=2, page=02 and page=0000002 share one page entry, and answer alike", async () => {
      const s = await service();
      const before = s.usage().pages;
      const bodies = new Set<string>();
      for (const page of ["2", "02", "0000002", `${"0".repeat(2000)}2`]) {
        const result = await s.get(`${s.url}${REPORT}&limit=1&page=${page}`, { key: s.key });
        expect(result.status).toBe(200);
        bodies.add(result.text);
      }
      expect(bodies.size).toBe(1);
      expect(s.usage().pages).toBe(before + 1);
    });

    it.each(["__proto__", "constructor", "prototype"])(
      "refuses %s as an unknown parameter, whatever its padding, and caches nothing for it",
      async (name) => {
        const s = await service();
        const before = s.usage();
        const result = await s.get(`${s.url}${REPORT}&${name}=${"x".repeat(15_000)}`, { key: s.key });
        expect(result.status).toBe(400);
        expect(result.json).toMatchObject({ error: { code: "unknown_parameter", param: name } });
        expect(s.usage()).toEqual(before);
      },
    );
  });

  describe("the caches stay within --cache-mb", () => {
    it("under many distinct pages of one report, long keys counted", async () => {
      const s = await service();
      for (let page = 1; page <= 800; page += 1) {
        const result = await s.get(`${s.url}${REPORT}&limit=1&page=${page}`, { key: s.key });
        expect(result.status).toBe(200);
      }
      const usage = s.usage();
      // The caches fill 3/4 of it: the rest is for what the allocator keeps of the memory they churn.
      expect(usage.budget).toBeLessThanOrEqual(BUDGET * 0.75);
      expect(usage.budget).toBeGreaterThanOrEqual(BUDGET * 0.7);
      expect(usage.bytes).toBeLessThanOrEqual(BUDGET);
      // Each empty page costs its key and a fixed overhead: far fewer than 800 fit in a quarter megabyte.
      expect(usage.pages).toBeLessThan(800);
    });

    it("under many distinct empty reports: each costs at least its fixed overhead", async () => {
      const s = await service();
      const start = Date.UTC(2020, 0, 1) / 1000;
      for (let hour = 1; hour <= 800; hour += 1) {
        const to = new Date((start + hour * 3600) * 1000).toISOString().replace(".000Z", "Z");
        const result = await s.get(`${s.url}/v1/report?from=2020-01-01&to=${to}&metrics=views&dimensions=campaign`, {
          key: s.key,
        });
        expect(result.status).toBe(200);
        expect((result.json as { meta: { total: number } }).meta.total).toBe(0);
      }
      const usage = s.usage();
      expect(usage.bytes).toBeLessThanOrEqual(BUDGET);
      expect(usage.reports).toBeLessThan(800);
      // PostgreSQL makes a report a table only when a second page of it is asked; its pages are cached alike.
      if (backend.name === "sqlite") expect(usage.reports).toBeGreaterThan(0);
      expect(usage.pages).toBeLessThan(800);
      expect(usage.pages).toBeGreaterThan(0);
    });

    it("keeps answering every page right when a report alone is larger than the budget", async () => {
      const s = await startTestService({
        keys: [{ advertiser: "Acme Outdoor", ips: ["127.0.0.1"] }],
        serve: { cacheMb: 0.001 },
      });
      const get = injected(s.server);
      const url = `${s.url}/v1/report?from=2026-10-01&to=2026-10-31&metrics=views&dimensions=ad,date&limit=50`;
      const first = (await get(`${url}&page=1`, { key: s.keys[0] })).json as {
        meta: { total: number };
        data: unknown[];
      };
      const rows = [...first.data];
      for (let page = 2; (page - 1) * 50 < first.meta.total; page += 1) {
        rows.push(...((await get(`${url}&page=${page}`, { key: s.keys[0] })).json as { data: unknown[] }).data);
      }
      expect(rows).toHaveLength(first.meta.total);
      expect(new Set(rows.map((r) => JSON.stringify(r))).size).toBe(rows.length);
      expect(s.server.store.cacheUsage().reports).toBe(0);
    });
  });
});
