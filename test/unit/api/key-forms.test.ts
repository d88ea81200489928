import { describe, expect, it } from "vitest";
import { keyForms } from "../../../src/api/key-forms";

describe("keyForms", () => {
  it("a short key (a test's `any`): no encoding shorter than 8 characters, which would match ordinary text", () => {
    const forms = keyForms("any");
    expect(forms).toContain("any");
    expect(forms).toContain(Buffer.from("Bearer any").toString("base64"));
    expect(forms.filter((form) => form !== "any" && form.length < 8)).toEqual([]);
    expect(keyForms("")).toEqual([]);
  });

  it("finds the key inside longer base64 at each byte alignment, longest forms first", () => {
    const key = "adr_Q9xLm2Zt7pW4rKs8Vb1Nc6Hd3Jf5Gy0Tq";
    const forms = keyForms(key);
    for (const before of ["", "a", "ab", "abc"]) {
      const text = Buffer.from(`${before}${key}!?`).toString("base64");
      expect(
        forms.some((form) => text.includes(form) && form.length >= Math.floor((key.length * 4) / 3) - 2),
        before,
      ).toBe(true);
    }
    const lengths = forms.map((form) => form.length);
    expect(lengths).toEqual([...lengths].sort((a, b) => b - a));
  });
});
