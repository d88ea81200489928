/**
 * `serve --cors ORIGIN` over real HTTP on 127.0.0.1: preflights of a listed origin answered 204, its GETs
 * (answers and errors) carrying Access-Control-Allow-Origin; other origins, and a serve without --cors,
 * as before. `servers` in the OpenAPI document names the address serve listens on.
 */
import { describe, expect, it } from "vitest";
import { corsOrigin } from "../../src/server";
import { httpGet } from "../helpers/http";
import { serveDatabase, startTestService } from "../helpers/serve";

const APP = "https://app.example.com";
const DEV = "http://localhost:5173";
const service = await startTestService({
  keys: [{ advertiser: "Acme Outdoor", ips: ["127.0.0.1"] }],
  serve: { corsOrigins: [APP, DEV] },
});
const [KEY] = service.keys as [string];
const plain = await serveDatabase(service.dbPath);
const REPORT = "/v1/report?from=2026-10-25&to=2026-10-31&metrics=views";
const preflight = (origin: string) => ({
  method: "OPTIONS",
  headers: { origin, "access-control-request-method": "GET", "access-control-request-headers": "authorization" },
});
const corsHeaders = (headers: Record<string, unknown>) =>
  Object.keys(headers).filter((name) => name.startsWith("access-control-"));

describe("serve --cors", () => {
  it("answers a preflight from a listed origin 204, allowing GET with an Authorization header", async () => {
    for (const origin of [APP, DEV]) {
      const answer = await httpGet(`${service.url}${REPORT}`, preflight(origin));
      expect(answer.status).toBe(204);
      expect(answer.text).toBe("");
      expect(answer.headers["access-control-allow-origin"]).toBe(origin);
      expect(answer.headers["access-control-allow-methods"]).toBe("GET");
      expect(answer.headers["access-control-allow-headers"]).toBe("authorization");
      expect(answer.headers["access-control-max-age"]).toBe("600");
      expect(answer.headers.vary).toBe("Origin");
    }
    expect((await httpGet(`${service.url}/openapi.json`, preflight(APP))).status).toBe(204);
  });

  it("names a listed origin on a GET's answer and on its errors, and exposes Retry-After and WWW-Authenticate", async () => {
    const ok = await httpGet(`${service.url}${REPORT}`, { key: KEY, headers: { origin: APP } });
    expect(ok.status).toBe(200);
    expect(ok.headers["access-control-allow-origin"]).toBe(APP);
    expect(ok.headers["access-control-expose-headers"]).toBe("Retry-After, WWW-Authenticate");
    expect(ok.headers.vary).toBe("Origin");
    const refused = await httpGet(`${service.url}${REPORT}`, { headers: { origin: DEV } });
    expect(refused.status).toBe(401);
    expect(refused.headers["access-control-allow-origin"]).toBe(DEV);
    expect(refused.headers["www-authenticate"]).toBe("Bearer");
  });

  it("gives an origin not listed no CORS header (its browser keeps the answer from the page)", async () => {
    for (const origin of [
      "https://evil.example.com",
      "https://app.example.com:8443",
      "http://app.example.com",
      "null",
    ]) {
      const pre = await httpGet(`${service.url}${REPORT}`, preflight(origin));
      expect(pre.status).toBe(405);
      expect(corsHeaders(pre.headers)).toEqual([]);
      const get = await httpGet(`${service.url}${REPORT}`, { key: KEY, headers: { origin } });
      expect(get.status).toBe(200);
      expect(corsHeaders(get.headers)).toEqual([]);
      expect(get.headers.vary).toBe("Origin");
    }
  });

  it("leaves an OPTIONS that is not a preflight, and other paths, as they were", async () => {
    const options = await httpGet(`${service.url}${REPORT}`, { method: "OPTIONS", headers: { origin: APP } });
    expect(options.status).toBe(405);
    expect(options.headers.allow).toBe("GET, HEAD");
    const elsewhere = await httpGet(`${service.url}/nowhere`, preflight(APP));
    expect(elsewhere.status).toBe(404);
  });

  it("without --cors: a preflight is 405 and no answer carries a CORS header or Vary", async () => {
    const pre = await httpGet(`${plain.url}${REPORT}`, preflight(APP));
    expect(pre.status).toBe(405);
    expect(corsHeaders(pre.headers)).toEqual([]);
    const get = await httpGet(`${plain.url}${REPORT}`, { key: KEY, headers: { origin: APP } });
    expect(get.status).toBe(200);
    expect(corsHeaders(get.headers)).toEqual([]);
    expect(get.headers.vary).toBeUndefined();
  });
});

describe("--cors values", () => {
  it.each([
    ["https://app.example.com", "https://app.example.com"],
    ["https://App.Example.com/", "https://app.example.com"],
    ["https://app.example.com:443", "https://app.example.com"],
    ["http://localhost:5173", "http://localhost:5173"],
    ["http://[::1]:8080", "http://[::1]:8080"],
  ])("%s is the origin %s", (text, origin) => {
    expect(corsOrigin(text)).toBe(origin);
  });

  it.each([
    "*",
    "null",
    "app.example.com",
    "https://app.example.com/path",
    "https://app.example.com/?x=1",
    "https://user:pw@app.example.com",
    "ftp://app.example.com",
    "file:///tmp/page.html",
  ])("%s is refused", (text) => {
    expect(() => corsOrigin(text)).toThrow();
  });
});

describe("the OpenAPI document's servers", () => {
  it("names the address serve listens on", async () => {
    const answer = await httpGet(`${service.url}/openapi.json`);
    expect((answer.json as { servers: unknown }).servers).toEqual([
      { url: service.url, description: "this adreport serve" },
    ]);
  });

  it("names the host a request was sent to when serve listens on a wildcard address", async () => {
    const wildcard = await serveDatabase(service.dbPath, { host: "0.0.0.0" });
    const port = new URL(wildcard.url).port;
    const answer = await httpGet(`http://127.0.0.1:${port}/openapi.json`);
    expect((answer.json as { servers: Array<{ url: string }> }).servers[0]?.url).toBe(`http://127.0.0.1:${port}`);
    const forged = await httpGet(`http://127.0.0.1:${port}/openapi.json`, { headers: { host: 'x"><script>' } });
    expect((forged.json as { servers: Array<{ url: string }> }).servers[0]?.url).toBe(wildcard.url);
  });
});
