import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type Dimension,
  ENTITY_DIMENSIONS,
  type EntityDimension,
  GRANULARITIES,
  GRANULARITY_WORDS,
  KEYWORD_METRICS,
  METRICS,
  type Metric,
  metricsAllowedFor,
  parseReportQuery,
  QUERY_PARAMS,
  type QueryParams,
} from "../../../src/contract";

const DAY = 86_400;
const NINETY_DAYS = 90 * DAY;

/** An ISO 8601 date-time for epoch second `sec` written in a zone `offsetMinutes` east of UTC. */
function isoAt(sec: number, offsetMinutes: number, nanos = 0): string {
  const local = new Date((sec + offsetMinutes * 60) * 1000).toISOString().slice(0, 19);
  const fraction = nanos === 0 ? "" : `.${String(nanos).padStart(9, "0")}`;
  if (offsetMinutes === 0) return `${local}${fraction}Z`;
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  return `${local}${fraction}${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

const instantSec = fc.integer({ min: 946_684_800, max: 1_924_992_000 }); // 2000 .. 2031
const offset = fc.integer({ min: -14 * 60, max: 14 * 60 });

const dimensionSets = fc.oneof(
  fc.constant<Dimension[]>([]),
  fc.constant<Dimension[]>(["date"]),
  fc.constantFrom<EntityDimension>(...ENTITY_DIMENSIONS).map((e): Dimension[] => [e]),
  fc
    .constantFrom<EntityDimension>("campaign", "ad")
    .chain((e) => fc.constantFrom<Dimension[]>([e, "date"], ["date", e])),
);

function metricsFor(dims: Dimension[]) {
  return fc.shuffledSubarray(metricsAllowedFor(dims), { minLength: 1 });
}

const randomCase = (word: string) =>
  fc
    .array(fc.boolean(), { minLength: word.length, maxLength: word.length })
    .map((upper) => [...word].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(""));
const granularityWord = fc.constantFrom(...GRANULARITIES.flatMap((g) => [g, GRANULARITY_WORDS[g]])).chain(randomCase);

const validQuery = fc
  .record({
    fromSec: instantSec,
    span: fc.integer({ min: 0, max: NINETY_DAYS }),
    fromOffset: offset,
    toOffset: offset,
    dims: dimensionSets,
    granularity: fc.option(granularityWord, { nil: undefined }),
    campaign: fc.option(fc.integer({ min: 1, max: 2 ** 40 }), { nil: undefined }),
    ad: fc.option(fc.integer({ min: 1, max: 2 ** 40 }), { nil: undefined }),
    page: fc.option(fc.integer({ min: 1, max: 10_000 }), { nil: undefined }),
    limit: fc.option(fc.integer({ min: 1, max: 100_000 }), { nil: undefined }),
  })
  .chain((q) => metricsFor(q.dims).map((metrics) => ({ ...q, metrics })));

function paramsOf(q: {
  fromSec: number;
  span: number;
  fromOffset: number;
  toOffset: number;
  dims: Dimension[];
  metrics: Metric[];
  granularity?: string | undefined;
  campaign?: number | undefined;
  ad?: number | undefined;
  page?: number | undefined;
  limit?: number | undefined;
}): QueryParams {
  const params: QueryParams = {
    from: isoAt(q.fromSec, q.fromOffset),
    to: isoAt(q.fromSec + q.span, q.toOffset),
    metrics: q.metrics.join(","),
  };
  if (q.dims.length > 0) params.dimensions = q.dims.join(",");
  if (q.granularity !== undefined) params.granularity = q.granularity;
  if (q.campaign !== undefined) params.campaign_id = String(q.campaign);
  if (q.ad !== undefined) params.ad_id = String(q.ad);
  if (q.page !== undefined) params.page = String(q.page);
  if (q.limit !== undefined) params.limit = String(q.limit);
  return params;
}

function refusal(params: QueryParams | URLSearchParams) {
  const result = parseReportQuery(params);
  if (result.ok) throw new Error(`accepted ${JSON.stringify(params)}`);
  return { code: result.error.code, param: result.error.param, message: result.error.message };
}

const base: QueryParams = { from: "2026-11-01", to: "2026-11-07", metrics: "views" };

describe("parseReportQuery: valid requests", () => {
  it("accepts every valid combination and normalises it", () => {
    fc.assert(
      fc.property(validQuery, (q) => {
        const result = parseReportQuery(paramsOf(q));
        if (!result.ok) throw new Error(result.error.message);
        const { query } = result;
        expect(query.from.sec).toBe(q.fromSec);
        expect(query.to.sec).toBe(q.fromSec + q.span);
        expect(query.metrics).toEqual(q.metrics);
        const entity = q.dims.find((d) => d !== "date");
        expect(query.entity).toBe(entity);
        expect(query.dimensions).toEqual([...(entity ? [entity] : []), ...(q.dims.includes("date") ? ["date"] : [])]);
        expect(query.granularity).toBe(
          q.granularity === undefined
            ? "day"
            : GRANULARITIES.find(
                (g) => g === q.granularity?.toLowerCase() || GRANULARITY_WORDS[g] === q.granularity?.toLowerCase(),
              ),
        );
        expect(query.page).toBe(q.page ?? 1);
        expect(query.limit).toBe(Math.min(q.limit ?? 100, 1000));
        expect(query.campaignId).toBe(q.campaign);
        expect(query.adId).toBe(q.ad);
      }),
      { numRuns: 500 },
    );
  });

  it("accepts bare dates up to 90 calendar days and refuses 91", () => {
    fc.assert(
      fc.property(fc.integer({ min: 10_957, max: 22_000 }), fc.integer({ min: 0, max: 89 }), (day, span) => {
        const date = (d: number) => new Date(d * DAY * 1000).toISOString().slice(0, 10);
        expect(parseReportQuery({ ...base, from: date(day), to: date(day + span) }).ok).toBe(true);
        expect(refusal({ ...base, from: date(day), to: date(day + 90) }).code).toBe("range_too_long");
      }),
    );
  });

  it("applies a limit over 1000 as 1000", () => {
    const result = parseReportQuery({ ...base, limit: "99999999999999999999999" });
    expect(result.ok && result.query.limit).toBe(1000);
  });
});

describe("parseReportQuery: the 90-day edge is exact", () => {
  it("accepts exactly 90 x 24 h and refuses one nanosecond more, in any offsets", () => {
    fc.assert(
      fc.property(instantSec, fc.integer({ min: 0, max: 999_999_998 }), offset, offset, (sec, nano, o1, o2) => {
        const from = isoAt(sec, o1, nano);
        expect(parseReportQuery({ ...base, from, to: isoAt(sec + NINETY_DAYS, o2, nano) }).ok).toBe(true);
        const over = refusal({ ...base, from, to: isoAt(sec + NINETY_DAYS, o2, nano + 1) });
        expect(over).toMatchObject({ code: "range_too_long", param: "to" });
        const second = refusal({ ...base, from: isoAt(sec, o1), to: isoAt(sec + NINETY_DAYS + 1, o2) });
        expect(second.code).toBe("range_too_long");
      }),
      { numRuns: 300 },
    );
  });

  it("says how long the range was", () => {
    expect(refusal({ ...base, from: "2026-01-01T00:00:00Z", to: "2026-05-01T00:00:00Z" }).message).toBe(
      "to: range is 120 days, at most 90 days",
    );
  });
});

describe("parseReportQuery: refusals carry the contract's code and param", () => {
  it("refuses `to` before `from`", () => {
    fc.assert(
      fc.property(instantSec, fc.integer({ min: 1, max: NINETY_DAYS }), offset, (sec, back, o) => {
        expect(refusal({ ...base, from: isoAt(sec, o), to: isoAt(sec - back, o) })).toMatchObject({
          code: "invalid_parameter",
          param: "to",
        });
      }),
    );
  });

  it("refuses unknown parameters, whatever else is wrong", () => {
    const name = fc
      .string({ minLength: 1, maxLength: 12 })
      .filter((s) => !(QUERY_PARAMS as readonly string[]).includes(s));
    fc.assert(
      fc.property(name, fc.boolean(), (extra, breakOthers) => {
        const params: QueryParams = breakOthers ? { metrics: "nope", [extra]: "1" } : { ...base, [extra]: "1" };
        expect(refusal(params)).toMatchObject({ code: "unknown_parameter", param: extra });
      }),
    );
  });

  it.each(["from", "to", "metrics"])("requires %s", (param) => {
    const params = { ...base };
    delete params[param];
    expect(refusal(params)).toMatchObject({ code: "invalid_parameter", param, message: `${param}: required` });
  });

  it("refuses unknown, duplicate and empty metric names", () => {
    const word = fc
      .string({ maxLength: 10 })
      .filter((s) => !s.includes(",") && !(METRICS as readonly string[]).includes(s));
    fc.assert(
      fc.property(fc.shuffledSubarray([...METRICS], { minLength: 1 }), word, fc.nat(), (metrics, bad, at) => {
        const withBad: string[] = [...metrics];
        withBad.splice(at % (metrics.length + 1), 0, bad);
        expect(refusal({ ...base, metrics: withBad.join(",") })).toMatchObject({
          code: "invalid_parameter",
          param: "metrics",
        });
        const twice: string[] = [...metrics, metrics[at % metrics.length] as string];
        expect(refusal({ ...base, metrics: twice.join(",") })).toMatchObject({
          code: "invalid_parameter",
          param: "metrics",
        });
      }),
    );
    expect(refusal({ ...base, metrics: "" }).param).toBe("metrics");
    expect(refusal({ ...base, metrics: "Views" }).param).toBe("metrics");
  });

  it("refuses unknown, duplicate and empty dimension names", () => {
    for (const dimensions of ["", "date,", "date,date", "campaigns", "Date", "date,,campaign"]) {
      expect(refusal({ ...base, dimensions })).toMatchObject({ code: "invalid_parameter", param: "dimensions" });
    }
  });

  it("refuses two entity dimensions", () => {
    fc.assert(
      fc.property(
        fc.shuffledSubarray<Dimension>([...ENTITY_DIMENSIONS], { minLength: 2 }),
        fc.boolean(),
        (entities, date) => {
          const dims = date ? [...entities, "date"] : entities;
          expect(refusal({ ...base, dimensions: dims.join(",") })).toMatchObject({
            code: "unsupported_combination",
            param: "dimensions",
          });
        },
      ),
    );
  });

  it("refuses keyword with date, and keyword with conversions", () => {
    expect(refusal({ ...base, dimensions: "keyword,date" }).code).toBe("unsupported_combination");
    expect(refusal({ ...base, dimensions: "date,keyword" }).code).toBe("unsupported_combination");
    fc.assert(
      fc.property(fc.shuffledSubarray([...KEYWORD_METRICS]), fc.nat(), (metrics, at) => {
        const list: string[] = [...metrics];
        list.splice(at % (list.length + 1), 0, "conversions");
        expect(refusal({ ...base, dimensions: "keyword", metrics: list.join(",") })).toMatchObject({
          code: "unsupported_metric",
          param: "metrics",
        });
      }),
    );
  });

  it("refuses an unknown granularity even without date", () => {
    for (const granularity of ["", "minute", "days", "quarterly", "d"]) {
      expect(refusal({ ...base, granularity })).toMatchObject({ code: "invalid_parameter", param: "granularity" });
      expect(refusal({ ...base, dimensions: "date", granularity }).param).toBe("granularity");
    }
  });

  it.each(["campaign_id", "ad_id", "page", "limit"])("refuses a %s that is not a positive integer", (param) => {
    for (const value of ["0", "-1", "1.5", "1e3", "abc", "", " 1", "0x10"]) {
      expect(refusal({ ...base, [param]: value })).toMatchObject({ code: "invalid_parameter", param });
    }
  });

  it("refuses a parameter given twice", () => {
    const params = new URLSearchParams("from=2026-11-01&to=2026-11-02&metrics=views&metrics=clicks");
    expect(refusal(params)).toMatchObject({ code: "invalid_parameter", param: "metrics" });
  });

  it("never echoes more than a short piece of hostile input", () => {
    const long = "x".repeat(10_000);
    expect(refusal({ ...base, metrics: long }).message.length).toBeLessThan(200);
    expect(refusal({ ...base, [long]: "1" }).message.length).toBeLessThan(300);
  });
});
