/** A key as shown by `keys list`, `config list` and `serve key list`: prefix, four characters, the last four. */
import { describe, expect, it } from "vitest";
import { maskKey } from "../../../src/core/mask-key";

describe("maskKey", () => {
  it("shows the prefix, four characters and the last four of a key", () => {
    const key = `adr_${"S3cr".padEnd(39, "x")}wxyz`;
    expect(maskKey(key)).toBe("adr_S3cr…wxyz");
  });

  it("hides a key too short to show any of it", () => {
    expect(maskKey("adr_short")).toBe("adr_****");
    expect(maskKey("abc")).toBe("****");
  });

  it("says when there is no key", () => {
    expect(maskKey(undefined)).toBe("(none)");
    expect(maskKey("")).toBe("(none)");
  });
});
