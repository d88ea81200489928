/** The one masker of a URL's credentials, shared by the proxy message and the recorded command line. */
import { describe, expect, it } from "vitest";
import { maskedUrl } from "../../../src/core/masked-url";

describe("maskedUrl", () => {
  it.each([
    ["http://user:secret@proxy.corp:3128/", "http://user:***@proxy.corp:3128/"],
    ["http://token@proxy.corp:3128/", "http://***@proxy.corp:3128/"],
    ["http://proxy.corp:3128/", "http://proxy.corp:3128/"],
  ])("%s is shown as %s", (text, shown) => {
    expect(maskedUrl(new URL(text)).href).toBe(shown);
  });

  it("leaves the URL it was given as it was", () => {
    const url = new URL("http://user:secret@proxy.corp/");
    maskedUrl(url);
    expect(url.password).toBe("secret");
  });
});
