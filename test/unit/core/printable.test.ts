/** Text for a terminal: no control character ever reaches it raw. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { printable, printableLines } from "../../../src/core/printable";

// Anything a terminal may act on: C0, DEL, C1, the Unicode line and paragraph separators, bidi controls.
function unsafe(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x061c ||
    code === 0x200e ||
    code === 0x200f ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}
const hasUnsafe = (text: string) => [...text].some((char) => unsafe(char.codePointAt(0) as number));

describe("printable", () => {
  it("escapes the campaign name that recoloured the terminal and set its title", () => {
    expect(printable("\u001b[31mRED\u001b[0m\u001b]0;pwned-title\u0007")).toBe(
      "\\x1b[31mRED\\x1b[0m\\x1b]0;pwned-title\\x07",
    );
  });

  it("names tab, line feed and carriage return, and writes C1, DEL and Unicode controls by code", () => {
    expect(printable("a\tb\nc\rd")).toBe("a\\tb\\nc\\rd");
    expect(printable("\u0000\u007f\u0085\u009b")).toBe("\\x00\\x7f\\x85\\x9b");
    expect(printable("x\u2028y\u2029z")).toBe("x\\u2028y\\u2029z");
    expect(printable("\u202egnp.exe \u2066i\u2069 \u200e\u200f\u061c")).toBe(
      "\\u202egnp.exe \\u2066i\\u2069 \\u200e\\u200f\\u061c",
    );
  });

  it("leaves everything else as it is, non-ASCII and backslashes included", () => {
    for (const text of ["", "Été 🌞 日本語", "Spring, 2026", 'Summer "Sale"', "back\\slash", "zero\u200bwidth"])
      expect(printable(text)).toBe(text);
  });

  it("never lets an unsafe character through, whatever the text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => !hasUnsafe(printable(text))),
      { numRuns: 300 },
    );
  });

  it("keeps the line breaks between lines of a multi-line text, and escapes inside them", () => {
    expect(printableLines("one\u001b[2J\ntwo\r")).toBe("one\\x1b[2J\ntwo\\r");
  });
});
