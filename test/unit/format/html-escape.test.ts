/** Text from the service in a page: markup escaped, JSON that no text can break out of its <script>. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { escapeHtml, jsonInScript } from "../../../src/format/html/escape";

describe("escapeHtml", () => {
  it("escapes the five characters that can start or end markup or an attribute", () => {
    expect(escapeHtml(`<img src=x onerror="a('b')">&amp;`)).toBe(
      "&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt;&amp;amp;",
    );
  });
});

describe("jsonInScript", () => {
  it("never holds a '<', and reads back as the same value", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string(), fc.constant("</script><!--<script>"), fc.double(), fc.constant(null))),
        (value) => {
          const json = jsonInScript(value);
          expect(json.includes("<")).toBe(false);
          expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(value)));
        },
      ),
    );
  });
});
