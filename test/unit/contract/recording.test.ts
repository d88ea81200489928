/** The recording's files: any body's bytes come back as they were, whether kept as text or in base64. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { exchangeFileText, parseExchangeFile, type RecordedExchange, splitTarget } from "../../../src/contract";

function exchange(body: Uint8Array, headers: Array<[string, string]> = []): RecordedExchange {
  return {
    number: 1,
    request: { method: "GET", path: "/v1/report", query: [["page", "1"]], headers: [] },
    response: { status: 200, headers, body },
  };
}

describe("exchange files", () => {
  it("give back every body byte for byte", () => {
    const bodies = fc.oneof(
      fc.uint8Array({ maxLength: 300 }),
      fc.string({ unit: "grapheme", maxLength: 100 }).map((s) => new TextEncoder().encode(s)),
      fc.constantFrom(
        Buffer.from("\uFEFF{}", "utf8"),
        Buffer.from([0xc3, 0x28]),
        Buffer.from([0xed, 0xa0, 0x80]),
        Buffer.from('{"a":"\\u00e9"}\r\n'),
      ),
    );
    fc.assert(
      fc.property(bodies, fc.array(fc.tuple(fc.string(), fc.string()), { maxLength: 4 }), (body, headers) => {
        const parsed = parseExchangeFile(exchangeFileText(exchange(body, headers)));
        expect(parsed.ok).toBe(true);
        if (!parsed.ok) return;
        expect(Buffer.from(parsed.value.response?.body ?? []).equals(Buffer.from(body))).toBe(true);
        expect(parsed.value.response?.headers).toEqual(headers);
      }),
      { numRuns: 500 },
    );
  });

  it("keep a UTF-8 body as text and anything else in base64", () => {
    expect(exchangeFileText(exchange(Buffer.from('{"ok":true}')))).toContain('"body": "{\\"ok\\":true}"');
    expect(exchangeFileText(exchange(Buffer.from([0xff, 0x00])))).toContain('"body_base64": "/wA="');
  });

  it("refuse a file that is not an exchange, saying where", () => {
    expect(parseExchangeFile("{")).toEqual({ ok: false, message: "not JSON" });
    const noPath = JSON.parse(exchangeFileText(exchange(Buffer.from("x")))) as { request: { path: string } };
    noPath.request.path = "v1";
    expect(parseExchangeFile(JSON.stringify(noPath))).toMatchObject({ ok: false, message: /^request\.path: / });
  });

  it("split a request target as sent: the path raw, the query decoded, repeats kept", () => {
    expect(splitTarget("/v1/report?b=2&a=%2C&b=1")).toEqual({
      path: "/v1/report",
      query: [
        ["b", "2"],
        ["a", ","],
        ["b", "1"],
      ],
    });
    expect(splitTarget("/x")).toEqual({ path: "/x", query: [] });
  });
});
