/** Key fragments a service echoes (a prefix, a lower-cased copy) are found and written `***`. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { keyFragmentRedactor } from "../../../src/api/key-fragments";
import { redactor } from "../../../src/api/redact";

const KEY = "adr_SECRETkeyVALUE1234567890abcdef";

describe("key fragments", () => {
  const redact = keyFragmentRedactor(KEY, "***");

  it("writes a prefix, a middle run, a lower-cased or upper-cased copy as ***", () => {
    expect(redact(`key ${KEY.slice(0, 20)}… is bad`)).toBe("key ***… is bad");
    expect(redact(`x${KEY.slice(10, 24)}y`)).toBe("x***y");
    expect(redact(`[${KEY.toLowerCase()}] and [${KEY.toUpperCase()}]`)).toBe("[***] and [***]");
    expect(redact(`${KEY}${KEY}`)).toBe("***");
  });

  it("leaves runs shorter than 12 characters, and other text, as they were", () => {
    expect(redact(`adr_SECRETk and ${KEY.slice(-11)}`)).toBe(`adr_SECRETk and ${KEY.slice(-11)}`);
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const cleaned = text.replace(/[a-zA-Z0-9_]/g, "");
        expect(redact(cleaned)).toBe(cleaned);
      }),
    );
  });

  it("never lets 12 characters of the key through, whatever surrounds them", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 30 }),
        fc.integer({ min: 0, max: KEY.length - 12 }),
        fc.integer({ min: 12, max: KEY.length }),
        fc.string({ maxLength: 30 }),
        fc.boolean(),
        (before, start, length, after, lower) => {
          const piece = KEY.slice(start, start + length);
          const shown = redact(`${before}${lower ? piece.toLowerCase() : piece}${after}`).toLowerCase();
          for (let at = 0; at + 12 <= KEY.length; at += 1) {
            expect(shown).not.toContain(KEY.slice(at, at + 12).toLowerCase());
          }
        },
      ),
    );
  });

  it("is part of the client's redactor: messages built from what a service sent", () => {
    const message = `key ${KEY.toLowerCase()} / ${KEY.slice(0, 20)}… is bad`;
    expect(redactor(KEY).redact(message)).toBe("key *** / ***… is bad");
  });
});
