/**
 * Reports from a real `serve` over real HTTP, compared with totals computed independently from the loaded
 * NDJSON, for every dimension shape, granularity, filter and kind of range, and across pages.
 */
import fc from "fast-check";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { testBackends } from "../helpers/backends";
import { httpGet } from "../helpers/http";
import { type OpenApiChecker, openApiChecker } from "../helpers/openapi-check";
import { type RefQuery, referenceRows } from "../helpers/reference";
import { SMALL_DEMO, startTestService, type TestService } from "../helpers/serve";

describe.each(await testBackends())("on $name", (backend) => {
  beforeEach((context) => backend.skipUnavailable(context));
  let service: TestService;
  // Every answer below is also checked against the OpenAPI document serve publishes, by swagger-parser and Ajv.
  let openApi: OpenApiChecker;
  beforeAll(async () => {
    if (backend.unavailable) return;
    service = await startTestService({
      backend,
      keys: [
        { advertiser: "Acme Outdoor", ips: ["127.0.0.1"] },
        { advertiser: "Globex, Inc.", ips: ["127.0.0.0/8"] },
      ],
    });
    openApi = await openApiChecker((await httpGet(`${service.url}/openapi.json`)).json);
  });
  const ADVERTISERS = ["Acme Outdoor", "Globex, Inc."];
  const DAY = 86_400;
  const dataStart = SMALL_DEMO.end - SMALL_DEMO.days * DAY;

  interface Page {
    meta: {
      total: number;
      page: number;
      limit: number;
      has_more: boolean;
      granularity: string;
      dimensions: string[];
      metrics: string[];
    };
    data: Array<{ dimensions: Record<string, unknown>; metrics: Record<string, number> }>;
  }

  async function report(key: string, params: Record<string, string>) {
    const result = await httpGet(`${service.url}/v1/report?${new URLSearchParams(params)}`, { key });
    expect(openApi.problems("GET", "/v1/report", result)).toEqual([]);
    return { status: result.status, body: result.json as Page };
  }

  async function allPages(key: string, params: Record<string, string>, limit: number) {
    const rows: Page["data"] = [];
    let first: Page | undefined;
    for (let page = 1; ; page += 1) {
      const { status, body } = await report(key, { ...params, page: String(page), limit: String(limit) });
      expect(status).toBe(200);
      first ??= body;
      expect(body.meta.page).toBe(page);
      expect(body.meta.total).toBe(first.meta.total);
      rows.push(...body.data);
      if (!body.meta.has_more) break;
      expect(body.data.length).toBe(limit);
    }
    expect(rows.length).toBe(first?.meta.total);
    return { meta: first?.meta, rows };
  }

  function iso(sec: number, offsetMinutes: number, nanos: number): string {
    const local = new Date((sec + offsetMinutes * 60) * 1000).toISOString().slice(0, 19);
    const fraction = nanos ? `.${String(nanos).padStart(9, "0")}` : "";
    if (offsetMinutes === 0) return `${local}${fraction}Z`;
    const abs = Math.abs(offsetMinutes);
    return `${local}${fraction}${offsetMinutes < 0 ? "-" : "+"}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
  }

  const rangeArb = fc.oneof(
    // date-times anywhere around the data, with offsets and fractions
    fc
      .record({
        from: fc.integer({ min: dataStart - 5 * DAY, max: SMALL_DEMO.end }),
        span: fc.integer({ min: 0, max: 90 * DAY }),
        o1: fc.constantFrom(0, 0, 540, -300, 330),
        o2: fc.constantFrom(0, 0, 540, -300, 330),
        nanos: fc.constantFrom(0, 0, 0, 500_000_000),
      })
      .map((r) => ({
        from: iso(r.from, r.o1, r.nanos),
        to: iso(r.from + r.span, r.o2, r.nanos),
        fromMs: r.from * 1000 + r.nanos / 1e6,
        toMs: (r.from + r.span) * 1000 + r.nanos / 1e6,
      })),
    // bare dates
    fc
      .record({ day: fc.integer({ min: -5, max: SMALL_DEMO.days + 2 }), span: fc.integer({ min: 0, max: 89 }) })
      .map((r) => {
        const from = dataStart + r.day * DAY;
        const to = from + r.span * DAY;
        return {
          from: new Date(from * 1000).toISOString().slice(0, 10),
          to: new Date(to * 1000).toISOString().slice(0, 10),
          fromMs: from * 1000,
          toMs: (to + DAY - 1) * 1000,
        };
      }),
  );

  const shapeArb = fc.constantFrom<{ entity?: "campaign" | "ad" | "keyword"; byDate: boolean }>(
    { byDate: false },
    { byDate: true },
    { entity: "campaign", byDate: false },
    { entity: "campaign", byDate: true },
    { entity: "ad", byDate: false },
    { entity: "ad", byDate: true },
    { entity: "keyword", byDate: false },
  );

  const queryArb = fc
    .record({
      who: fc.integer({ min: 0, max: 1 }),
      range: rangeArb,
      shape: shapeArb,
      granularity: fc.constantFrom("hour", "day", "week", "month", "hourly", "Daily", "WEEKLY", "monthly"),
      dateFirst: fc.boolean(),
      filter: fc.constantFrom("none", "campaign", "ad", "both"),
      pick: fc.nat(),
      limit: fc.constantFrom(1, 7, 50, 1000),
    })
    .chain((q) =>
      fc
        .shuffledSubarray(
          q.shape.entity === "keyword"
            ? ["views", "spending", "clicks"]
            : ["views", "spending", "clicks", "conversions"],
          {
            minLength: 1,
          },
        )
        .map((metrics) => ({ ...q, metrics })),
    );

  describe("reports match totals computed from the loaded NDJSON", () => {
    it("for random shapes, granularities, ranges, filters and page sizes", async () => {
      await fc.assert(
        fc.asyncProperty(queryArb, async (q) => {
          const advertiser = ADVERTISERS[q.who] as string;
          const own = service.lines.filter((l) => l.advertiser === advertiser && l.keyword_id === undefined);
          const pickLine = own[q.pick % own.length];
          const granularity = q.granularity
            .toLowerCase()
            .replace(/ly$/, "")
            .replace("dai", "day") as RefQuery["granularity"];
          const dims = [...(q.shape.entity ? [q.shape.entity] : []), ...(q.shape.byDate ? ["date"] : [])];
          if (q.dateFirst) dims.reverse();
          const params: Record<string, string> = { from: q.range.from, to: q.range.to, metrics: q.metrics.join(",") };
          if (dims.length > 0) params.dimensions = dims.join(",");
          params.granularity = q.granularity;
          const ref: RefQuery = {
            advertiser,
            fromMs: q.range.fromMs,
            toMs: q.range.toMs,
            metrics: q.metrics,
            byDate: q.shape.byDate,
            granularity,
            ...(q.shape.entity ? { entity: q.shape.entity } : {}),
          };
          if ((q.filter === "campaign" || q.filter === "both") && pickLine) {
            params.campaign_id = String(pickLine.campaign_id);
            ref.campaignId = pickLine.campaign_id;
          }
          if ((q.filter === "ad" || q.filter === "both") && pickLine) {
            params.ad_id = String(pickLine.ad_id);
            ref.adId = pickLine.ad_id;
          }
          const { meta, rows } = await allPages(service.keys[q.who] as string, params, q.limit);
          expect(meta?.dimensions).toEqual([
            ...(q.shape.entity ? [q.shape.entity] : []),
            ...(q.shape.byDate ? ["date"] : []),
          ]);
          expect(meta?.metrics).toEqual(q.metrics);
          expect(meta?.granularity).toBe(
            q.shape.byDate ? { hour: "hourly", day: "daily", week: "weekly", month: "monthly" }[granularity] : "total",
          );
          expect(rows).toEqual(referenceRows(service.lines, ref));
        }),
        { numRuns: 120 },
      );
    });
  });

  describe("report rules", () => {
    const acme = () => service.keys[0] as string;
    const base = { from: "2026-10-01", to: "2026-10-31", metrics: "views,clicks,spending,conversions" };

    it("gives one grand-total row with empty dimensions, zeros when there is no data", async () => {
      const { body } = await report(acme(), { ...base, from: "2020-01-01", to: "2020-01-31" });
      expect(body.data).toEqual([{ dimensions: {}, metrics: { views: 0, clicks: 0, spending: 0, conversions: 0 } }]);
      expect(body.meta).toMatchObject({ total: 1, has_more: false, granularity: "total", dimensions: [] });
    });

    it("gives no rows for a date breakdown without data", async () => {
      const { body } = await report(acme(), {
        ...base,
        from: "2020-01-01",
        to: "2020-01-31",
        dimensions: "campaign,date",
      });
      expect(body.data).toEqual([]);
      expect(body.meta.total).toBe(0);
    });

    it("counts an hour whose start is inside [from, to], to the second", async () => {
      const line = service.lines.find(
        (l) => l.advertiser === "Acme Outdoor" && l.keyword_id === undefined && l.views > 0,
      );
      if (!line) throw new Error("no data");
      const sum = (from: string, to: string) =>
        report(acme(), { from, to, metrics: "views", ad_id: String(line.ad_id) }).then(
          (r) => r.body.data[0]?.metrics.views,
        );
      const hour = Date.parse(line.hour) / 1000;
      const at = (s: number) => new Date(s * 1000).toISOString().replace(".000Z", "Z");
      expect(await sum(at(hour), at(hour))).toBe(line.views);
      expect(await sum(at(hour + 1), at(hour + 3599))).toBe(0);
      expect(await sum(at(hour - 3599), at(hour))).toBe(line.views);
      expect(await sum(at(hour - 3600), at(hour - 1))).not.toBe(undefined);
    });

    it("applies a limit over 1000 as 1000 and says so", async () => {
      const { body } = await report(acme(), { ...base, dimensions: "ad,date", granularity: "hour", limit: "5000" });
      expect(body.meta.limit).toBe(1000);
      expect(body.data.length).toBe(1000);
      expect(body.meta.has_more).toBe(true);
    });

    it("answers a page past the end with no rows and has_more false", async () => {
      const { status, body } = await report(acme(), { ...base, dimensions: "campaign", page: "99" });
      expect(status).toBe(200);
      expect(body.data).toEqual([]);
      expect(body.meta).toMatchObject({ page: 99, has_more: false, total: 2 });
    });

    it("defaults to page 1, limit 100 and daily buckets", async () => {
      const { body } = await report(acme(), { ...base, dimensions: "date" });
      expect(body.meta).toMatchObject({ page: 1, limit: 100, granularity: "daily" });
    });

    it("ignores granularity without date, but still refuses a bad word", async () => {
      expect((await report(acme(), { ...base, granularity: "month" })).body.meta.granularity).toBe("total");
      const bad = await report(acme(), { ...base, granularity: "fortnight" });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ error: { code: "invalid_parameter", param: "granularity" } });
    });

    it("gives spending as the exact decimal sum", async () => {
      const { body } = await report(acme(), { ...base, metrics: "spending" });
      const micros = service.lines
        .filter((l) => l.advertiser === "Acme Outdoor" && l.keyword_id === undefined)
        .filter((l) => l.hour >= "2026-10-01" && l.hour <= "2026-10-31T23:59:59Z")
        .reduce((sum, l) => sum + Math.round(l.spending * 1e6), 0);
      expect(body.data[0]?.metrics.spending).toBe(micros / 1e6);
      expect(String(body.data[0]?.metrics.spending).split(".")[1]?.length ?? 0).toBeLessThanOrEqual(6);
    });

    it("never shows another advertiser's names or totals", async () => {
      const { body } = await report(acme(), { ...base, dimensions: "ad" });
      const names = new Set(service.lines.filter((l) => l.advertiser !== "Acme Outdoor").map((l) => l.ad_id));
      for (const row of body.data) expect(names.has(row.dimensions.ad_id as number)).toBe(false);
    });
  });
});
