import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseReportBody } from "../../../src/contract";

/**
 * The rows as the spans cut them from the body, or undefined when parseReportBody gives no spans. The body
 * is parsed in place (brackets are written into it for a while): it must come back as it was.
 */
function rowsCut(body: Buffer, count: number): string[] | undefined {
  const copy = Buffer.from(body);
  const spans = parseReportBody(copy).sent(count).spans();
  expect(copy.equals(body)).toBe(true);
  if (spans === undefined) return undefined;
  const rows: string[] = [];
  for (let i = 0; i < spans.length; i += 2) rows.push(copy.toString("utf8", spans[i], spans[i + 1]));
  return rows;
}

function row(i: number, name: string): string {
  return `{"dimensions":{"ad_id":${i},"name":${JSON.stringify(name)},"date":"2026-10-0${i % 9}"},"metrics":{"views":${i * 7},"spending":${i / 8}}}`;
}

function page(rows: string[], meta = '{"total":1}'): Buffer {
  return Buffer.from(`{"meta":${meta},"data":[${rows.join(",")}]}`);
}

/** Strings a row boundary search could be fooled by. */
const tricky = fc.constantFrom('},{"', '"data":[', "]}", "[", "\\", '\\"', "é", "🌞", ",", '"},{"d', "\u2028");

describe("parseReportBody", () => {
  it("gives what JSON.parse gives, and each row's bytes, for a large page parsed in pieces", () => {
    const rows = Array.from({ length: 3000 }, (_, i) => row(i, i % 7 === 0 ? `Été "${i}" },{"x` : `Banner ${i}`));
    const body = page(rows);
    const parsed = parseReportBody(Buffer.from(body));
    expect(parsed.value).toEqual(JSON.parse(body.toString()));
    expect(rowsCut(body, rows.length)).toEqual(rows);
  });

  it("throws JSON.parse's error for a body that is not JSON, wherever the damage is", () => {
    const rows = Array.from({ length: 3000 }, (_, i) => row(i, `Banner ${i}`));
    const body = page(rows);
    const middle = body.indexOf("},{", body.length / 2) + 1;
    const damage: [number, string][] = [
      [0, "["], // the top-level object
      [body.indexOf('"data":[') + 6, ","], // the colon before the rows
      [middle, ":"], // a comma between rows, in a piece in the middle
      [body.lastIndexOf("}}") + 1, ","], // the end of the last row
      [body.length - 2, "}"], // the end of the rows' array
    ];
    for (const [at, char] of damage) {
      const broken = Buffer.from(body);
      broken[at] = char.charCodeAt(0);
      expect(() => JSON.parse(broken.toString())).toThrow(SyntaxError);
      expect(() => parseReportBody(broken)).toThrow(SyntaxError);
    }
    const unclosedString = Buffer.from(body.toString().replace('"Banner 1500"', '"Banner 1500'));
    expect(() => parseReportBody(unclosedString)).toThrow(SyntaxError);
  });

  it("takes the last `data` when it is repeated, as JSON.parse does", () => {
    const body = Buffer.from(`{"data":[${row(1, "a")}],"meta":{},"data":[${row(2, "b")},${row(3, "c")}]}`);
    expect(parseReportBody(Buffer.from(body)).value).toEqual(JSON.parse(body.toString()));
    expect(rowsCut(body, 2)).toEqual([row(2, "b"), row(3, "c")]);
    const later = Buffer.from(`{"meta":{},"data":[${row(1, "a")}],"data":[]}`);
    expect(parseReportBody(Buffer.from(later)).value).toEqual({ meta: {}, data: [] });
  });

  it("does not take an array of another member for the rows", () => {
    for (const text of [
      `{"meta":{"data":[1]},"data":[${row(1, "a")}]}`,
      `{"meta":{},"data":[${row(1, "a")}],"other":[${row(2, "b")}]}`,
      `{"meta":{},"x\\"data":[${row(1, "a")}]}`,
      `{"meta":{},"d\\u0061ta":[${row(1, "a")}]}`,
    ]) {
      const body = Buffer.from(text);
      const value = JSON.parse(text) as { data?: unknown[] };
      expect(parseReportBody(Buffer.from(body)).value).toEqual(value);
      const count = value.data?.length ?? 0;
      const cut = rowsCut(body, count);
      if (cut !== undefined) expect(cut.map((r) => JSON.parse(r))).toEqual(value.data);
    }
  });

  it("gives no spans for a body that is not valid UTF-8, and still parses it as JSON.parse would", () => {
    const body = page([row(1, "a"), row(2, "b")]);
    body[body.indexOf("a")] = 0xff;
    expect(parseReportBody(Buffer.from(body)).value).toEqual(JSON.parse(body.toString("utf8")));
    expect(rowsCut(body, 2)).toBeUndefined();
  });

  it("agrees with JSON.parse on any page, in any layout, and cuts exactly its rows", () => {
    const value = fc.oneof(fc.string(), tricky, fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(null));
    const rowValue = fc.record(
      {
        dimensions: fc.dictionary(fc.oneof(fc.string(), tricky), value),
        metrics: fc.dictionary(fc.string(), fc.integer()),
        extra: fc.jsonValue(),
      },
      { requiredKeys: ["dimensions", "metrics"] },
    );
    const layout = fc.record({
      indent: fc.constantFrom(undefined, undefined, 1, "\t"),
      before: fc.dictionary(fc.oneof(fc.string(), tricky), fc.jsonValue(), { maxKeys: 2 }),
      after: fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 1 }),
      trailing: fc.constantFrom("", "\n", " \r\n"),
    });
    fc.assert(
      fc.property(fc.array(rowValue, { maxLength: 30 }), layout, (data, { indent, before, after, trailing }) => {
        const text = `${JSON.stringify({ meta: { total: data.length }, ...before, data, ...after }, null, indent)}${trailing}`;
        const body = Buffer.from(text);
        const expected = JSON.parse(text) as { data: unknown[] };
        expect(parseReportBody(Buffer.from(body)).value).toEqual(expected);
        const cut = rowsCut(body, expected.data.length);
        if (cut !== undefined) expect(cut.map((r) => JSON.parse(r))).toEqual(expected.data);
        if (indent === undefined && !("data" in after) && !text.slice(text.indexOf('"data":[')).includes("["))
          expect(cut).toBeDefined();
      }),
      { numRuns: 300 },
    );
  });

  it("agrees with JSON.parse on a damaged page: the same value, or the same refusal", () => {
    const rows = fc.array(
      fc.tuple(fc.nat(99), fc.oneof(fc.string(), tricky)).map(([i, name]) => row(i, name)),
      { minLength: 1, maxLength: 20 },
    );
    fc.assert(
      fc.property(
        rows,
        fc.nat(),
        fc.constantFrom("[", "]", "{", "}", ",", '"', ":", "\\", " ", "x"),
        (list, at, char) => {
          const text = page(list).toString();
          const index = at % text.length;
          const damaged = Buffer.from(text.slice(0, index) + char + text.slice(index + 1));
          let expected: unknown;
          try {
            expected = JSON.parse(damaged.toString());
          } catch {
            expect(() => parseReportBody(Buffer.from(damaged))).toThrow(SyntaxError);
            return;
          }
          expect(parseReportBody(Buffer.from(damaged)).value).toEqual(expected);
        },
      ),
      { numRuns: 500 },
    );
  });
});
