import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseReportBody } from "../../../../src/api/body/report-body";
import { type ReportRow, reportPageSchema } from "../../../../src/contract";
import { joinRows } from "../../../../src/format/rows-as-sent";
import { seededRandom } from "../../../../src/server/seeded-random";

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

/**
 * JSON as a service might write it but JSON.stringify never does: escapes for any character (`\u00e9`,
 * `\/`), white space around `:` and `,`, numbers with exponents or `.0`, and keys given twice (the first
 * a decoy that JSON.parse replaces), sometimes spelled with escapes.
 */
/**
 * Node 24.21's JSON.parse sometimes keeps the first of two members with one key, from the second parse of a
 * text on (seen with a 2 KB body of this test, fast-check seed 726422208; Node 20 and 22 always keep the
 * last): it disagrees with itself, so there such bodies have no one value to compare with.
 */
const DUPLICATE_KEYS = Number(process.versions.node.split(".")[0]) < 24;

function writeJson(value: unknown, pick: () => number): string {
  const space = () => [" ", "", "", "\n  ", "\t", " \r\n"][Math.floor(pick() * 6)] as string;
  const string = (text: string) => {
    let out = '"';
    for (const char of text) {
      const code = char.codePointAt(0) as number;
      if (char === '"' || char === "\\") out += pick() < 0.5 ? `\\${char}` : `\\u${code.toString(16).padStart(4, "0")}`;
      else if (code < 0x20) out += `\\u${code.toString(16).padStart(4, "0")}`;
      else if (char === "/") out += pick() < 0.5 ? "\\/" : "/";
      else if (pick() < 0.2)
        for (let k = 0; k < char.length; k += 1)
          out += `\\u${char.charCodeAt(k).toString(16).padStart(4, "0").toUpperCase()}`;
      else out += char;
    }
    return `${out}"`;
  };
  const number = (n: number) => {
    const r = pick();
    if (r < 0.25) return n.toExponential().replace("e", pick() < 0.5 ? "e" : "E");
    if (r < 0.4 && Number.isInteger(n) && Math.abs(n) < 1e15) return `${n}.0`;
    return JSON.stringify(n);
  };
  const write = (v: unknown): string => {
    if (v === null || typeof v === "boolean") return String(v);
    if (typeof v === "number") return number(v);
    if (typeof v === "string") return string(v);
    if (Array.isArray(v)) return `[${space()}${v.map((item) => `${write(item)}${space()}`).join(`,${space()}`)}]`;
    const members: string[] = [];
    for (const [key, item] of Object.entries(v as Record<string, unknown>)) {
      if (DUPLICATE_KEYS && pick() < 0.15)
        members.push(`${string(key)}${space()}:${space()}${write(pick() < 0.5 ? [{ decoy: 1 }] : "decoy")}`);
      members.push(`${string(key)}${space()}:${space()}${write(item)}`);
    }
    return `{${space()}${members.join(`${space()},${space()}`)}${space()}}`;
  };
  return write(value);
}

describe("rows copied from bodies JSON.stringify never writes", () => {
  it("gives no spans when a top-level key has an escape: `data` spelled otherwise replaces the rows", () => {
    const text = `{"data":[${row(1, "a")}],"d\\u0061ta":[${row(2, "b")}]}`;
    const parsed = parseReportBody(Buffer.from(text));
    expect((parsed.value as { data: unknown[] }).data).toEqual([JSON.parse(row(2, "b"))]);
    expect(rowsCut(Buffer.from(text), 1)).toBeUndefined();
  });

  it("prints each row as a line that parses to the row validated, whatever the spelling", () => {
    // -0 left out: where rows are serialised again, JSON.stringify writes it as 0, as it always has.
    const double = fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (n === 0 ? 0 : n));
    const scalar = fc.oneof(
      fc.string(),
      tricky,
      fc.constantFrom("/", "a/b", "\u2028", "\u0000", "é"),
      double,
      fc.integer(),
      fc.constant(null),
    );
    const rowValue = fc.record(
      {
        dimensions: fc.dictionary(fc.oneof(fc.string(), tricky, fc.constant("data")), scalar, { maxKeys: 4 }),
        metrics: fc.dictionary(fc.string(), fc.oneof(fc.integer(), double)),
        extra: fc.jsonValue({ maxDepth: 2 }),
      },
      { requiredKeys: ["dimensions", "metrics"] },
    );
    fc.assert(
      fc.property(fc.array(rowValue, { maxLength: 12 }), fc.integer(), (data, seed) => {
        const pick = seededRandom(seed); // one fast-check seed decides every choice of spelling
        const meta = {
          granularity: "total",
          dimensions: [],
          metrics: [],
          total: data.length,
          page: 1,
          limit: 1000,
          has_more: false,
        };
        const text = writeJson({ meta, data }, pick);
        const expected = JSON.parse(text) as { data: unknown };
        const body = Buffer.from(text);
        const parsed = parseReportBody(body);
        expect(parsed.value).toEqual(expected);
        const checked = reportPageSchema.safeParse(parsed.value);
        if (!checked.success) return; // a decoy took the place of the rows: nothing is printed from this body
        const rows: ReportRow[] = checked.data.data;
        if (rows.length === 0) return;
        const lines = joinRows({ rows, sent: parsed.sent(rows.length) }, "\n", "\n")
          .toString("utf8")
          .split("\n")
          .slice(0, -1);
        expect(lines.map((line) => JSON.parse(line))).toEqual(rows);
      }),
      { numRuns: 400 },
    );
  });
});
