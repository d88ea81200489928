/**
 * The restatement model and its clock (docs/service.md, "Restatements"), on both backends: the same seed
 * answers byte for byte at the same clock however the clock got there; days change mostly in their first
 * days and never after the horizon, where they read as loaded; a campaign is the sum of its ads at every
 * clock; a deleted ad keeps its past and has no hour from its deletion on; the clock bounds the hours that
 * exist; no request of an API key moves it; and without a model (or after `serve restate --off`) the
 * service answers exactly as before.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { type OperatorStore, openOperatorStore } from "../../src/server";
import { daySchedule } from "../../src/server/restate/model";
import type { SeedRequest } from "../../src/server/restate/restate-rules";
import { testBackends } from "../helpers/backends";
import { type HttpResult, injected } from "../helpers/http";
import { SMALL_DEMO, serveDatabase, startTestService, type TestService } from "../helpers/serve";

const DAY = 86_400;
/** SMALL_DEMO's data: 40 days ending just before 2026-11-01. */
const END = SMALL_DEMO.end;
const FIRST_DAY = END - SMALL_DEMO.days * DAY;
const ACME = { advertiser: "Acme Outdoor", ips: ["127.0.0.1"] };
const GLOBEX = { advertiser: "Globex, Inc.", ips: ["127.0.0.1"] };

const iso = (sec: number) => new Date(sec * 1000).toISOString().replace(".000Z", "Z");

/** A report over [from, to) of the metrics every level has. */
function reportUrl(
  url: string,
  from: number,
  to: number,
  extra: string,
  metrics = "views,clicks,conversions,spending",
) {
  return `${url}/v1/report?from=${iso(from)}&to=${iso(to - 1)}&metrics=${metrics}${extra}`;
}

async function withStore<T>(db: string, work: (store: OperatorStore) => Promise<T>): Promise<T> {
  const store = await openOperatorStore(db, { create: false });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

const seed = (db: string, request: Partial<SeedRequest> & { clock: number }) =>
  withStore(db, (store) => store.restate({ seed: 5, horizonDays: 10, deletions: 0, ...request }));
const moveTo = (db: string, clock: number) => withStore(db, (store) => store.moveClock({ to: clock }));

interface Asker {
  get(url: string, key: string): Promise<HttpResult>;
  /** Every row of a report, page after page, as the service gave them. */
  rows(
    url: string,
    key: string,
  ): Promise<Array<{ dimensions: Record<string, number>; metrics: Record<string, number> }>>;
}

/** A service over a copy of the demo data, whose every request looks at the database first. */
async function service(backend: Awaited<ReturnType<typeof testBackends>>[number]): Promise<TestService & Asker> {
  let now = 0;
  const started = await startTestService({
    keys: [ACME, GLOBEX],
    backend,
    serve: { nowMs: () => (now += 1000) },
  });
  const ask = injected(started.server);
  const get = (url: string, key: string) => ask(url, { key });
  const rows: Asker["rows"] = async (url, key) => {
    const all: Awaited<ReturnType<Asker["rows"]>> = [];
    for (let page = 1; ; page += 1) {
      const answer = await get(`${url}&limit=1000&page=${page}`, key);
      expect(answer.status, answer.text).toBe(200);
      const body = answer.json as { data: never[]; meta: { has_more: boolean } };
      all.push(...body.data);
      if (!body.meta.has_more) return all;
    }
  };
  return { ...started, get, rows };
}

/** The answers compared between services: texts of several reports of both advertisers. */
async function answers(s: TestService & Asker, from: number, to: number): Promise<string[]> {
  const texts: string[] = [];
  for (const key of s.keys) {
    for (const extra of [
      "&dimensions=date",
      "&dimensions=ad,date",
      "&dimensions=campaign",
      "&dimensions=ad,date&granularity=hour&limit=500&page=2",
    ]) {
      texts.push((await s.get(reportUrl(s.url, from, to, extra), key)).text);
    }
    texts.push((await s.get(reportUrl(s.url, from, to, "&dimensions=keyword", "views,clicks,spending"), key)).text);
  }
  return texts;
}

describe.each(await testBackends())("the restatement model on $name", (backend) => {
  beforeEach((context) => backend.skipUnavailable(context));

  it("answers byte for byte alike at the same clock, set at once or walked to a day at a time", async () => {
    const [direct, walked, other] = [await service(backend), await service(backend), await service(backend)];
    const clock = END - 12 * DAY;
    await seed(direct.dbPath, { clock });
    await seed(walked.dbPath, { clock: clock - 15 * DAY });
    for (let at = clock - 14 * DAY; at <= clock; at += DAY) await moveTo(walked.dbPath, at);
    await seed(other.dbPath, { clock, seed: 6 });
    const span = [clock - 40 * DAY, clock] as const;
    const expected = await answers(direct, ...span);
    expect(await answers(walked, ...span)).toEqual(expected);
    expect(await answers(other, ...span)).not.toEqual(expected);
    // Back and forth again: still the same answers.
    await moveTo(walked.dbPath, clock - 30 * DAY);
    await moveTo(walked.dbPath, clock);
    expect(await answers(walked, ...span)).toEqual(expected);
  });

  it("changes a day mostly in its first days, never after the horizon, and settles as loaded", async () => {
    const s = await service(backend);
    const loaded = await s.rows(reportUrl(s.url, FIRST_DAY, END, "&dimensions=date"), s.keys[0] as string);
    const horizon = 10;
    const start = FIRST_DAY + DAY;
    await seed(s.dbPath, { clock: start, horizonDays: horizon });
    const changesByAge = new Map<number, number>();
    let before = new Map<number, string>();
    for (let clock = start; clock <= END + (horizon + 2) * DAY; clock += DAY) {
      await moveTo(s.dbPath, clock);
      const rows = await s.rows(reportUrl(s.url, FIRST_DAY, END, "&dimensions=date"), s.keys[0] as string);
      // No day exists at or after the clock's day.
      expect(rows.every((r) => (r.dimensions.date as number) < clock)).toBe(true);
      const now = new Map(rows.map((r) => [r.dimensions.date as number, JSON.stringify(r.metrics)]));
      for (const [day, metrics] of now) {
        if (before.has(day) && before.get(day) !== metrics) {
          const age = (clock - day) / DAY - 1;
          changesByAge.set(age, (changesByAge.get(age) ?? 0) + 1);
        }
      }
      before = now;
    }
    const total = [...changesByAge.values()].reduce((a, b) => a + b, 0);
    const early = [1, 2, 3].reduce((sum, age) => sum + (changesByAge.get(age) ?? 0), 0);
    expect(total).toBeGreaterThan(SMALL_DEMO.days);
    expect(early / total).toBeGreaterThan(0.5);
    expect(Math.max(...changesByAge.keys())).toBeLessThanOrEqual(horizon);
    // Some days still change in the second half of the horizon: the long tail.
    expect([...changesByAge.keys()].some((age) => age > horizon / 2)).toBe(true);
    // Every day settled reads as loaded.
    const settled = await s.rows(reportUrl(s.url, FIRST_DAY, END, "&dimensions=date"), s.keys[0] as string);
    expect(settled).toEqual(loaded);
  });

  it("keeps each day's direction: conversions only rise, valid clicks and views only fall", async () => {
    const s = await service(backend);
    const key = s.keys[0] as string;
    const loaded = await s.rows(reportUrl(s.url, FIRST_DAY, END, "&dimensions=date"), key);
    await seed(s.dbPath, { clock: END });
    const early = await s.rows(reportUrl(s.url, FIRST_DAY, END, "&dimensions=date"), key);
    const last = (rows: typeof loaded) => rows.filter((r) => (r.dimensions.date as number) >= END - 3 * DAY);
    const [was, is] = [last(loaded), last(early)];
    expect(is.length).toBe(3);
    for (const [i, row] of is.entries()) {
      const base = (was[i] as (typeof loaded)[number]).metrics;
      expect(row.metrics.conversions).toBeLessThanOrEqual(base.conversions as number);
      expect(row.metrics.clicks).toBeGreaterThanOrEqual(base.clicks as number);
      expect(row.metrics.views).toBeGreaterThanOrEqual(base.views as number);
    }
    expect(is.some((row, i) => row.metrics.clicks !== (was[i] as (typeof loaded)[number]).metrics.clicks)).toBe(true);
  });

  it("answers a campaign as the sum of its ads, and the total as the sum of the days, at every clock", async () => {
    const s = await service(backend);
    await seed(s.dbPath, { clock: END - 20 * DAY, deletions: 2 });
    for (const clock of [END - 20 * DAY, END - 19 * DAY + 7 * 3600, END - 5 * DAY, END + 3 * DAY]) {
      await moveTo(s.dbPath, clock);
      for (const key of s.keys) {
        const ads = await s.rows(reportUrl(s.url, FIRST_DAY, END, "&dimensions=ad,date"), key);
        const campaigns = await s.rows(reportUrl(s.url, FIRST_DAY, END, "&dimensions=campaign,date"), key);
        const summed = new Map<string, Record<string, number>>();
        for (const row of ads) {
          const at = `${row.dimensions.campaign_id}:${row.dimensions.date}`;
          const sum = summed.get(at) ?? { views: 0, clicks: 0, conversions: 0, spending: 0 };
          for (const m of Object.keys(sum)) sum[m] = (sum[m] as number) + (row.metrics[m] as number);
          summed.set(at, sum);
        }
        expect(campaigns.length).toBe(summed.size);
        for (const row of campaigns) {
          const sum = summed.get(`${row.dimensions.campaign_id}:${row.dimensions.date}`) as Record<string, number>;
          expect(row.metrics.views).toBe(sum.views);
          expect(row.metrics.clicks).toBe(sum.clicks);
          expect(row.metrics.conversions).toBe(sum.conversions);
          expect(row.metrics.spending).toBeCloseTo(sum.spending as number, 6);
        }
        const days = await s.rows(reportUrl(s.url, FIRST_DAY, END, "&dimensions=date"), key);
        const [total] = await s.rows(reportUrl(s.url, FIRST_DAY, END, ""), key);
        expect(total?.metrics.views).toBe(days.reduce((sum, r) => sum + (r.metrics.views as number), 0));
      }
    }
  });

  it("moves conversions between campaigns back at an age where the day's totals stay", async () => {
    const s = await service(backend);
    const model = { seed: 5, horizonDays: 10 };
    await seed(s.dbPath, { clock: FIRST_DAY, ...model });
    const moving: Array<{ day: number; back: number }> = [];
    for (let day = FIRST_DAY; day < END; day += DAY) {
      const back = daySchedule(model, day).movedBack;
      if (back !== undefined) moving.push({ day, back });
    }
    expect(moving.length).toBeGreaterThan(3);
    let campaignsMoved = 0;
    for (const { day, back } of moving) {
      const before = day + back * DAY;
      const at = (extra: string) => reportUrl(s.url, day, day + DAY, extra);
      const read = async () =>
        Promise.all(
          s.keys.flatMap((key) => [s.get(at("&dimensions=date"), key), s.get(at("&dimensions=campaign,date"), key)]),
        );
      await moveTo(s.dbPath, before);
      const was = (await read()).map((a) => a.text);
      await moveTo(s.dbPath, before + DAY);
      const is = (await read()).map((a) => a.text);
      // Each advertiser's day: the same totals; its campaigns' rows may differ.
      expect([is[0], is[2]]).toEqual([was[0], was[2]]);
      if (is[1] !== was[1] || is[3] !== was[3]) campaignsMoved += 1;
    }
    expect(campaignsMoved).toBeGreaterThan(0);
  });

  it("keeps a deleted ad's past days, restating as any other's, and gives it no hour from its deletion on", async () => {
    const [kept, deleting] = [await service(backend), await service(backend)];
    await seed(kept.dbPath, { clock: END });
    const move = await seed(deleting.dbPath, { clock: END, deletions: 1 });
    const [gone] = move.status.deleted;
    if (!gone) throw new Error("no ad deleted");
    expect(gone.deletedAt).toBeGreaterThanOrEqual(FIRST_DAY);
    expect(gone.deletedAt).toBeLessThan(END);
    let seen = false;
    for (const [i, k] of kept.keys.entries()) {
      const d = deleting.keys[i] as string;
      const url = (s: TestService) =>
        reportUrl(s.url, FIRST_DAY, END, `&dimensions=ad,date&granularity=hour&ad_id=${gone.adId}`);
      const asKept = await kept.get(url(kept), k);
      if (asKept.status === 403) continue;
      seen = true;
      const hours = (await deleting.rows(url(deleting), d)).map((r) => r.dimensions.date as number);
      const before = (await kept.rows(url(kept), k)).filter((r) => (r.dimensions.date as number) < gone.deletedAt);
      // Its hours before the deletion, as any other ad's at that clock; none from it on.
      expect((await kept.rows(url(kept), k)).some((r) => (r.dimensions.date as number) >= gone.deletedAt)).toBe(true);
      expect(hours.every((h) => h < gone.deletedAt)).toBe(true);
      expect(await deleting.rows(url(deleting), d)).toEqual(before);
      // Its campaign's past still holds it: the report of a range before the deletion is unchanged.
      const past = (s: TestService) =>
        reportUrl(s.url, FIRST_DAY, gone.deletedAt - (gone.deletedAt % DAY), "&dimensions=campaign,date");
      expect((await deleting.get(past(deleting), d)).text).toBe((await kept.get(past(kept), k)).text);
    }
    expect(seen).toBe(true);
  });

  it("has no hour that has not ended at the clock: today's are there up to the clock's hour", async () => {
    const s = await service(backend);
    const clock = END - 10 * DAY + 6 * 3600 + 1800;
    await seed(s.dbPath, { clock });
    const hours = await s.rows(
      reportUrl(s.url, END - 12 * DAY, END, "&dimensions=date&granularity=hour"),
      s.keys[0] as string,
    );
    const lastHour = Math.max(...hours.map((r) => r.dimensions.date as number));
    expect(lastHour).toBe(END - 10 * DAY + 5 * 3600);
    const days = await s.rows(reportUrl(s.url, END - 12 * DAY, END, "&dimensions=date"), s.keys[0] as string);
    expect(Math.max(...days.map((r) => r.dimensions.date as number))).toBe(END - 10 * DAY);
  });

  it("cannot be moved by a request: the clock is the operator's, through the database", async () => {
    const s = await service(backend);
    await seed(s.dbPath, { clock: END - 5 * DAY });
    const key = s.keys[0] as string;
    const before = (await s.get(reportUrl(s.url, FIRST_DAY, END, "&dimensions=date"), key)).text;
    const tries: Array<[string, string]> = [
      ["GET", `${reportUrl(s.url, FIRST_DAY, END, "&dimensions=date")}&clock=${iso(END)}`],
      ["POST", `${s.url}/admin/clock?set=${iso(END)}`],
      ["GET", `${s.url}/admin/clock?set=${iso(END)}`],
      ["POST", `${s.url}/v1/clock`],
      ["PUT", `${s.url}/v1/report?clock=${iso(END)}`],
    ];
    const ask = injected(s.server);
    const named = await ask(tries[0]?.[1] as string, { key });
    expect(named.status).toBe(400);
    expect((named.json as { error: { code: string } }).error.code).toBe("unknown_parameter");
    for (const [method, url] of tries) {
      const answer = await ask(url, { key, method });
      expect([400, 404, 405]).toContain(answer.status);
    }
    expect((await s.get(reportUrl(s.url, FIRST_DAY, END, "&dimensions=date"), key)).text).toBe(before);
    expect((await withStore(s.dbPath, (store) => store.restateStatus()))?.clock).toBe(END - 5 * DAY);
  });

  it("answers as loaded again after the model is taken off, and refuses a load while it restates", async () => {
    const [plain, restated] = [await service(backend), await service(backend)];
    await seed(restated.dbPath, { clock: END - 8 * DAY, deletions: 2 });
    await expect(withStore(restated.dbPath, (store) => store.writeFacts([[]]))).rejects.toThrow(/restates its data/);
    await withStore(restated.dbPath, (store) => store.removeRestatement());
    expect(await withStore(restated.dbPath, (store) => store.restateStatus())).toBeUndefined();
    expect(await answers(restated, FIRST_DAY, END)).toEqual(await answers(plain, FIRST_DAY, END));
    // A database without a model has no clock to move.
    await expect(moveTo(restated.dbPath, END)).rejects.toThrow(/no restatement model/);
  });

  it("serves a second process the same answers at the same clock", async () => {
    const s = await service(backend);
    await seed(s.dbPath, { clock: END - 3 * DAY });
    let now = 0;
    const second = await serveDatabase(s.dbPath, { serve: { nowMs: () => (now += 1000) } });
    const ask = injected(second.server);
    const url = reportUrl(s.url, FIRST_DAY, END, "&dimensions=ad,date");
    for (const clock of [END - 2 * DAY, END - DAY]) {
      await moveTo(s.dbPath, clock);
      const key = s.keys[1] as string;
      expect((await ask(url.replace(s.url, second.url), { key })).text).toBe((await s.get(url, key)).text);
    }
  });
});
