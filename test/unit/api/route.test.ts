/** Which proxy, if any, requests to the service go through: the setting, the environment, NO_PROXY. */
import { describe, expect, it } from "vitest";
import { proxyFor } from "../../../src/api/route";

const via = (base: string, env: Record<string, string>, setting?: string) =>
  proxyFor(new URL(base), { setting, env })?.from;

describe("proxyFor", () => {
  it("takes HTTPS_PROXY for https:// and HTTP_PROXY for http://, lower case first, https falling back to http", () => {
    expect(via("https://r.example", { HTTPS_PROXY: "http://p:1", HTTP_PROXY: "http://q:2" })).toBe("HTTPS_PROXY");
    expect(via("http://r.example", { HTTPS_PROXY: "http://p:1", HTTP_PROXY: "http://q:2" })).toBe("HTTP_PROXY");
    expect(via("https://r.example", { HTTP_PROXY: "http://q:2" })).toBe("HTTP_PROXY");
    expect(via("https://r.example", { https_proxy: "http://p:1", HTTPS_PROXY: "http://q:2" })).toBe("https_proxy");
    expect(via("http://r.example", { HTTPS_PROXY: "http://p:1" })).toBeUndefined();
    expect(via("http://r.example", {})).toBeUndefined();
  });

  it("follows NO_PROXY: names, subdomains, a leading dot or *., ports, and *", () => {
    const env = { HTTPS_PROXY: "http://p:1" };
    for (const noProxy of ["r.example", "example", ".example", "*.example", "other, r.example", "r.example:443", "*"]) {
      expect(via("https://r.example", { ...env, NO_PROXY: noProxy })).toBeUndefined();
    }
    for (const noProxy of ["other.example", "r.example:8443", "xr.example", "ample"]) {
      expect(via("https://r.example", { ...env, no_proxy: noProxy })).toBe("HTTPS_PROXY");
    }
  });

  it("never proxies a loopback address, and `direct` turns the proxy off", () => {
    const env = { HTTP_PROXY: "http://p:1", HTTPS_PROXY: "http://p:1" };
    for (const base of ["http://127.0.0.1:8080", "http://127.1.2.3", "http://localhost:8080", "http://[::1]:8080"]) {
      expect(via(base, env)).toBeUndefined();
    }
    expect(via("https://r.example", env, "direct")).toBeUndefined();
  });

  it("prefers the proxy setting to the environment, NO_PROXY still applying, and masks a password", () => {
    const env = { HTTPS_PROXY: "http://p:1" };
    const choice = proxyFor(new URL("https://r.example"), { setting: "http://user:secret@proxy.corp:3128", env });
    expect(choice).toEqual({
      url: "http://user:secret@proxy.corp:3128",
      from: "the proxy setting",
      shown: "http://user:***@proxy.corp:3128",
    });
    expect(via("https://r.example", { ...env, NO_PROXY: "r.example" }, "http://proxy.corp:3128")).toBeUndefined();
  });
});
