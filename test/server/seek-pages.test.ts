/**
 * `serve` pages a report by seeking: its page map is computed once, then any page, asked in any order, is
 * computed from the entities it spans. The rows, their order and `total` are those of the whole report
 * (an independent reference here), on both backends, whatever the budget; a report larger than the budget
 * is not computed again for each page; and a page asked after the data changed comes from the new data.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { ServeOptions } from "../../src/server";
import { FRESHNESS_MS } from "../../src/server/store/types";
import { addHourToFirstAd } from "../helpers/add-hour";
import { testBackends } from "../helpers/backends";
import { injected } from "../helpers/http";
import { type RefLine, type RefQuery, referenceRows } from "../helpers/reference";
import { SMALL_DEMO, startTestService } from "../helpers/serve";

const DEMO = { ...SMALL_DEMO, campaignsPerAdvertiser: 3, adsPerCampaign: 3, keywordsPerAd: 2, days: 12 };
const ADVERTISER = "Acme Outdoor";
/** Partial days at both ends: whole days from rollups, the edges from hourly rows. */
const FROM = "2026-10-22T05:00:00Z";
const TO = "2026-10-29T17:59:59Z";
const LIMIT = 5;

interface Shape {
  params: Record<string, string>;
  ref: Omit<RefQuery, "advertiser" | "fromMs" | "toMs">;
}

const SHAPES: Shape[] = [
  {
    params: { dimensions: "ad,date", granularity: "hour", metrics: "views,spending" },
    ref: { entity: "ad", byDate: true, granularity: "hour", metrics: ["views", "spending"] },
  },
  {
    params: { dimensions: "campaign,date", metrics: "clicks,conversions" },
    ref: { entity: "campaign", byDate: true, granularity: "day", metrics: ["clicks", "conversions"] },
  },
  {
    params: { dimensions: "ad,date", granularity: "week", metrics: "spending", campaign_id: "2" },
    ref: { entity: "ad", byDate: true, granularity: "week", metrics: ["spending"], campaignId: 2 },
  },
  {
    params: { dimensions: "campaign,date", granularity: "hour", metrics: "views", ad_id: "1005" },
    ref: { entity: "campaign", byDate: true, granularity: "hour", metrics: ["views"], adId: 1005 },
  },
  {
    params: { dimensions: "ad", metrics: "views,clicks" },
    ref: { entity: "ad", byDate: false, granularity: "day", metrics: ["views", "clicks"] },
  },
  {
    params: { dimensions: "keyword", metrics: "views" },
    ref: { entity: "keyword", byDate: false, granularity: "day", metrics: ["views"] },
  },
  {
    params: { dimensions: "date", granularity: "hour", metrics: "views" },
    ref: { byDate: true, granularity: "hour", metrics: ["views"] },
  },
];

interface Page {
  meta: { total: number; has_more: boolean };
  data: unknown[];
}

function reference(lines: readonly RefLine[], shape: Shape) {
  return referenceRows(lines, {
    ...shape.ref,
    advertiser: ADVERTISER,
    fromMs: Date.parse(FROM),
    toMs: Date.parse(TO),
  });
}

describe.each(await testBackends())("on $name", (backend) => {
  beforeEach((context) => backend.skipUnavailable(context));

  async function service(serve: Partial<ServeOptions> = {}) {
    const s = await startTestService({
      backend,
      demo: DEMO,
      keys: [{ advertiser: ADVERTISER, ips: ["127.0.0.1"] }],
      serve,
    });
    const get = injected(s.server);
    const page = async (params: Record<string, string>, n: number) => {
      const query = new URLSearchParams({ from: FROM, to: TO, ...params, limit: String(LIMIT), page: String(n) });
      const result = await get(`${s.url}/v1/report?${query}`, { key: s.keys[0] });
      expect(result.status).toBe(200);
      return result.json as Page;
    };
    return { ...s, page, usage: () => s.server.store.cacheUsage() };
  }

  it.each([
    ["the default budget", 64],
    ["a budget of nothing", 0],
  ])(
    "pages in order and out of order give the whole report's rows and total, under %s",
    { timeout: 120_000 },
    async (_, cacheMb) => {
      const s = await service({ cacheMb });
      for (const shape of SHAPES) {
        const expected = reference(s.lines, shape);
        const pages = Math.max(1, Math.ceil(expected.length / LIMIT));
        expect(pages, JSON.stringify(shape.params)).toBeGreaterThan(1);
        // Last page first, then every third, then the rest: each placed by the map alone.
        const order = [pages, ...Array.from({ length: pages - 1 }, (_, i) => i + 1)].sort(
          (a, b) => (a % 3) - (b % 3) || b - a,
        );
        const got = new Map<number, Page>();
        for (const n of order) got.set(n, await s.page(shape.params, n));
        const rows = Array.from({ length: pages }, (_, i) => got.get(i + 1)?.data ?? []).flat();
        expect(rows, JSON.stringify(shape.params)).toEqual(expected);
        for (const [n, body] of got) {
          expect(body.meta.total).toBe(expected.length);
          expect(body.meta.has_more).toBe(n < pages);
        }
        const past = await s.page(shape.params, pages + 1);
        expect(past).toMatchObject({ meta: { total: expected.length, has_more: false }, data: [] });
      }
    },
  );

  it("computes a report larger than the budget once, not once a page", { timeout: 120_000 }, async () => {
    // 16 KB for reports: the hourly report's rows (about 100 KB) do not fit, its page map (a few hundred bytes) does.
    const s = await service({ cacheMb: 0.02 });
    const shape = SHAPES[0] as Shape;
    const expected = reference(s.lines, shape);
    expect(expected.length * 100).toBeGreaterThan(0.02 * 1024 * 1024);
    const before = s.usage().reportsComputed;
    const rows: unknown[] = [];
    for (let n = 1; (n - 1) * LIMIT < expected.length; n += 1) rows.push(...(await s.page(shape.params, n)).data);
    expect(rows).toEqual(expected);
    expect(s.usage().reportsComputed - before).toBe(1);
    expect(s.usage().bytes).toBeLessThanOrEqual(s.usage().budget);
  });

  it("answers a page asked after the data changed from the new data, placed by a new map", async () => {
    let nowMs = 0;
    const s = await service({ nowMs: () => nowMs });
    const shape = SHAPES[0] as Shape;
    const first = await s.page(shape.params, 1);
    const before = reference(s.lines, shape);
    expect(first.data).toEqual(before.slice(0, LIMIT));

    // An hour of the first ad that had no data gets some: one row more, in the first page's entity.
    const added = await addHourToFirstAd(s, ADVERTISER, FROM);

    const after = reference([...s.lines, added], shape);
    expect(after.length).toBe(before.length + 1);
    nowMs += FRESHNESS_MS;
    const second = await s.page(shape.params, 2);
    expect(second.meta.total).toBe(after.length);
    expect(second.data).toEqual(after.slice(LIMIT, 2 * LIMIT));
  });
});
