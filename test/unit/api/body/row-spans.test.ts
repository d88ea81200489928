import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rowBoundaries, rowSpans } from "../../../../src/api/body/row-spans";

function rowsAt(text: string): string[] | undefined {
  const body = Buffer.from(text);
  const parsed = JSON.parse(text) as { data?: unknown };
  const count = Array.isArray(parsed.data) ? parsed.data.length : 0;
  const spans = rowSpans(body, count);
  if (spans === undefined) return undefined;
  const rows: string[] = [];
  for (let i = 0; i < spans.length; i += 2) rows.push(body.toString("utf8", spans[i], spans[i + 1]));
  return rows;
}

describe("rowSpans", () => {
  it("finds each row of a compact page", () => {
    const text =
      '{"meta":{"total":2},"data":[{"dimensions":{"a":1},"metrics":{"v":1}},{"dimensions":{"a":2},"metrics":{"v":2}}]}';
    expect(rowsAt(text)).toEqual([
      '{"dimensions":{"a":1},"metrics":{"v":1}}',
      '{"dimensions":{"a":2},"metrics":{"v":2}}',
    ]);
  });

  it("is not fooled by brackets, quotes, escapes or a `data` inside strings", () => {
    const rows = [
      '{"dimensions":{"name":"a}],{\\"data\\":[{"},"metrics":{}}',
      '{"dimensions":{"name":"back\\\\slash\\\\"},"metrics":{"v":1}}',
      '{"dimensions":{"name":"Été 🌞 \\u00e9"},"metrics":{},"extra":[{"x":[1,{"y":"]"}]}]}',
    ];
    const text = `{"note":"\\"data\\":[1]","data": [ ${rows.join(" ,\n  ")} ],"meta":{"data":[{}]}}`;
    expect(rowsAt(text)).toEqual(rows);
  });

  it("follows JSON.parse when `data` is repeated: the last one counts", () => {
    expect(rowsAt('{"data":[{"a":1}],"data":[{"b":2},{"c":3}]}')).toEqual(['{"b":2}', '{"c":3}']);
    expect(rowsAt('{"data":[{"a":1}],"data":5}')).toBeUndefined();
  });

  it("gives up on what it cannot be sure of", () => {
    expect(rowsAt('{"d\\u0061ta":[{"a":1}]}')).toBeUndefined(); // the key spelled with an escape
    expect(rowsAt('{"data":[{"a":1}],"d\\u0061ta":[{"b":2}]}')).toBeUndefined(); // a later `data` so spelled
    expect(rowsAt('{"me\\u0074a":{},"data":[{"a":1}]}')).toBeUndefined(); // any top-level key with an escape
    expect(rowsAt('{"data":[{"a":1},2]}')).toBeUndefined(); // an element that is not an object
    expect(rowsAt('{"data":[[1]]}')).toBeUndefined();
    expect(rowsAt('[{"data":[{"a":1}]}]')).toBeUndefined(); // not an object at the top
    expect(rowSpans(Buffer.from('{"data":[{"a":1}]}'), 2)).toBeUndefined(); // JSON.parse counted otherwise
  });

  it("finds exactly the rows JSON.parse finds, for any rows written compact or indented", () => {
    const value = fc.oneof(fc.string(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(null));
    const row = fc.record({
      dimensions: fc.dictionary(fc.string(), value),
      metrics: fc.dictionary(fc.string(), fc.integer()),
      extra: fc.jsonValue(),
    });
    fc.assert(
      fc.property(fc.array(row, { maxLength: 20 }), fc.constantFrom(undefined, 1, "\t"), (data, indent) => {
        const text = JSON.stringify({ meta: { total: data.length }, data }, null, indent);
        const rows = rowsAt(text);
        expect(rows?.map((r) => JSON.parse(r))).toEqual(JSON.parse(text).data);
      }),
    );
  });
});

describe("rowBoundaries", () => {
  const boundaries = (text: string) => {
    const body = Buffer.from(text);
    return rowBoundaries(body, text.indexOf("["), text.lastIndexOf("]"));
  };

  it("cuts between compact rows, and not at a `},{` inside a string", () => {
    expect(boundaries('[{"a":"},{"},{"b":1}]')).toEqual([1, 12, 13, 20]);
    expect(boundaries('[{"a":{"b":1}},{"c":2}]')).toEqual([1, 14, 15, 22]);
  });

  it("gives up on an array inside the rows or rows not at the brackets", () => {
    expect(boundaries('[{"a":[1]},{"b":1}]')).toBeUndefined();
    expect(boundaries('[{"a":"[x]"}]')).toBeUndefined();
    expect(boundaries('[ {"a":1}]')).toBeUndefined();
  });

  it("finds fewer boundaries than rows where rows are spaced apart", () => {
    expect(boundaries('[{"a":1}, {"b":1},{"c":1}]')).toEqual([1, 17, 18, 25]);
  });
});
