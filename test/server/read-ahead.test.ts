/**
 * `serve` reads the next page of a report ahead while a client pages it in order (store/read-ahead.ts): the
 * pages so answered are the whole report's rows, in order, on both backends; pages asked out of order read
 * nothing ahead and give the same rows; and a page read ahead before the data changed is not answered after.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { ServeOptions } from "../../src/server";
import { FRESHNESS_MS } from "../../src/server/store/types";
import { addHourToFirstAd } from "../helpers/add-hour";
import { testBackends } from "../helpers/backends";
import { httpGet } from "../helpers/http";
import { type RefLine, referenceRows } from "../helpers/reference";
import { SMALL_DEMO, startTestService } from "../helpers/serve";

/** About 4,300 hourly rows for the advertiser: 5 pages of 1,000, the smallest page read ahead. */
const DEMO = { ...SMALL_DEMO, campaignsPerAdvertiser: 3, adsPerCampaign: 3, keywordsPerAd: 0 };
const ADVERTISER = "Acme Outdoor";
const FROM = "2026-09-22T00:00:00Z";
const TO = "2026-10-31T23:59:59Z";
const LIMIT = 1000;
const PARAMS = { dimensions: "ad,date", granularity: "hour", metrics: "views,spending,clicks,conversions" };

interface Page {
  meta: { total: number; has_more: boolean };
  data: unknown[];
}

function reference(lines: readonly RefLine[]) {
  return referenceRows(lines, {
    advertiser: ADVERTISER,
    fromMs: Date.parse(FROM),
    toMs: Date.parse(TO),
    entity: "ad",
    byDate: true,
    granularity: "hour",
    metrics: PARAMS.metrics.split(","),
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
    const page = async (n: number) => {
      const query = new URLSearchParams({ from: FROM, to: TO, ...PARAMS, limit: String(LIMIT), page: String(n) });
      const result = await httpGet(`${s.url}/v1/report?${query}`, { key: s.keys[0] });
      expect(result.status).toBe(200);
      return result.json as Page;
    };
    return { ...s, page, readAhead: () => s.server.store.cacheUsage().pagesReadAhead };
  }

  it("answers pages asked in order from pages read ahead, the whole report's rows", { timeout: 120_000 }, async () => {
    const s = await service();
    const expected = reference(s.lines);
    const pages = Math.ceil(expected.length / LIMIT);
    expect(pages).toBeGreaterThanOrEqual(4);
    const rows: unknown[] = [];
    for (let n = 1; n <= pages; n += 1) {
      const body = await s.page(n);
      expect(body.meta).toMatchObject({ total: expected.length, has_more: n < pages });
      rows.push(...body.data);
    }
    expect(rows).toEqual(expected);
    // Page 2 shows the client reads in order; every page after it was read before it was asked.
    expect(s.readAhead()).toBe(pages - 2);
  });

  it("gives the same rows to pages asked out of order, and reads none ahead", { timeout: 120_000 }, async () => {
    const s = await service();
    const expected = reference(s.lines);
    const pages = Math.ceil(expected.length / LIMIT);
    // No page follows the one before it: descending odd pages, then descending even pages.
    const order = Array.from({ length: pages }, (_, i) => pages - i).sort((a, b) => (a % 2) - (b % 2) || b - a);
    const got = new Map<number, unknown[]>();
    for (const n of order) got.set(n, (await s.page(n)).data);
    expect(Array.from({ length: pages }, (_, i) => got.get(i + 1) ?? []).flat()).toEqual(expected);
    expect(s.readAhead()).toBe(0);
  });

  it("does not answer a page read ahead before the data changed", { timeout: 120_000 }, async () => {
    let nowMs = 0;
    const s = await service({ nowMs: () => nowMs });
    const before = reference(s.lines);
    expect((await s.page(1)).data).toEqual(before.slice(0, LIMIT));
    expect((await s.page(2)).data).toEqual(before.slice(LIMIT, 2 * LIMIT));

    // Page 3 is read ahead now. An hour of the first ad that had no data gets some: every later row moves by one.
    const added = await addHourToFirstAd(s, ADVERTISER, FROM);

    nowMs += FRESHNESS_MS;
    const after = reference([...s.lines, added]);
    const third = await s.page(3);
    expect(third.meta.total).toBe(after.length);
    expect(third.data).toEqual(after.slice(2 * LIMIT, 3 * LIMIT));
    expect(s.readAhead()).toBe(0);
  });
});
