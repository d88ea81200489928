/** Every non-2xx is the JSON body of contract.md A4; nothing a caller sends produces a 5xx. */
import { connect } from "node:net";
import fc from "fast-check";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { QUERY_PARAMS } from "../../src/contract";
import { testBackends } from "../helpers/backends";
import { httpGet } from "../helpers/http";
import { type OpenApiChecker, openApiChecker } from "../helpers/openapi-check";
import { startTestService, type TestService } from "../helpers/serve";

describe.each(await testBackends())("on $name", (backend) => {
  beforeEach((context) => backend.skipUnavailable(context));
  let service: TestService;
  let key: string;
  let openApi: OpenApiChecker;
  beforeAll(async () => {
    if (backend.unavailable) return;
    service = await startTestService({ backend, keys: [{ advertiser: "Acme Outdoor", ips: ["127.0.0.1"] }] });
    key = service.keys[0] as string;
    openApi = await openApiChecker((await httpGet(`${service.url}/openapi.json`)).json);
  });
  const REPORT = "/v1/report?from=2026-10-01&to=2026-10-31&metrics=views";

  function expectErrorBody(result: { status: number; headers: Record<string, unknown>; json: unknown }) {
    expect(result.headers["content-type"]).toMatch(/^application\/json/);
    const body = result.json as { error: { status: number; code: string; message: string } };
    expect(body.error.status).toBe(result.status);
    expect(typeof body.error.code).toBe("string");
    expect(typeof body.error.message).toBe("string");
  }

  describe("methods and paths", () => {
    it.each(["POST", "PUT", "DELETE", "PATCH", "OPTIONS"])(
      "answers %s with 405 and Allow: GET, HEAD",
      async (method) => {
        const result = await httpGet(service.url + REPORT, { key, method });
        expect(result.status).toBe(405);
        expect(result.headers.allow).toBe("GET, HEAD");
        expectErrorBody(result);
      },
    );

    it.each(["POST", "PUT", "DELETE"])(
      "answers %s /openapi.json with 405 and Allow: GET, HEAD, as the report",
      async (method) => {
        const result = await httpGet(`${service.url}/openapi.json`, { method });
        expect(result.status).toBe(405);
        expect(result.headers.allow).toBe("GET, HEAD");
        expectErrorBody(result);
      },
    );

    it("answers HEAD like GET, without a body", async () => {
      const result = await httpGet(service.url + REPORT, { key, method: "HEAD" });
      expect(result.status).toBe(200);
      expect(result.text).toBe("");
    });

    it.each(["/v1/%ZZreport", "/%", "/v1/report%00"])(
      "answers the malformed path %s with a JSON 400 or 404",
      async (path) => {
        const result = await httpGet(service.url + path, { key });
        expect([400, 404]).toContain(result.status);
        expectErrorBody(result);
      },
    );

    it.each(["/", "/v1", "/v1/report/extra", "/v2/report", "/v1/reports"])("answers %s with 404", async (path) => {
      const result = await httpGet(service.url + path, { key });
      expect(result.status).toBe(404);
      expectErrorBody(result);
      expect((result.json as { error: { code: string } }).error.code).toBe("not_found");
    });

    it("answers a malformed HTTP request with a JSON 400", async () => {
      const { port } = new URL(service.url);
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), "127.0.0.1", () => socket.write("GARBAGE /v1/report HTTP/9.9\r\n\r\n"));
        let text = "";
        socket.on("data", (chunk) => {
          text += chunk.toString();
        });
        socket.on("end", () => resolve(text));
        socket.on("error", reject);
      });
      expect(answer).toMatch(/^HTTP\/1\.1 400/);
      expect(answer).toContain('"code":"invalid_parameter"');
    });
  });

  describe("hostile query strings", () => {
    it.each(["__proto__", "constructor", "toString", "hasOwnProperty"])(
      "granularity=%s is a 400 like any unknown word (it once reopened the database: 503 for everyone)",
      async (word) => {
        const result = await httpGet(`${service.url}${REPORT}&dimensions=date&granularity=${word}`, { key });
        expect(result.status).toBe(400);
        expect((result.json as { error: { code: string; param?: string } }).error).toMatchObject({
          code: "invalid_parameter",
        });
        const after = await httpGet(service.url + REPORT, { key });
        expect(after.status).toBe(200);
      },
    );

    const piece = fc.oneof(
      fc.constantFrom(
        ...QUERY_PARAMS,
        "2026-10-01",
        "2026-10-31T23:00:00+09:00",
        "views,clicks",
        "keyword,date",
        "campaign",
        "%",
        "%00",
        "%zz",
        "%C3%28",
        "&",
        "=",
        "==",
        "+",
        "[]",
        "__proto__",
        "constructor",
        "-1",
        "1e400",
        "99999999999999999999999",
        "NaN",
      ),
      fc.string({ maxLength: 12 }),
      fc.string({ unit: "binary", maxLength: 6 }).map(encodeURIComponent),
    );
    const query = fc.array(piece, { maxLength: 16 }).map((parts) => parts.join(""));

    it("never produce a 5xx and always produce the JSON error body", async () => {
      await fc.assert(
        fc.asyncProperty(query, async (q) => {
          const result = await httpGet(`${service.url}/v1/report?${q.replace(/[\s#]/g, "")}`, { key });
          expect(result.status).toBeLessThan(500);
          expect(openApi.problems("GET", "/v1/report", result)).toEqual([]);
          if (result.status !== 200) expectErrorBody(result);
        }),
        { numRuns: 300 },
      );
    });

    it("in the path too: never a 5xx, always the JSON error body", async () => {
      const segment = fc.oneof(
        fc.constantFrom("v1", "report", "%", "%zz", "%00", "..", ".", "%2F", "%C0%AF", "~", ";", "@", "*"),
        fc.string({ maxLength: 8 }).map(encodeURIComponent),
      );
      await fc.assert(
        fc.asyncProperty(fc.array(segment, { minLength: 1, maxLength: 5 }), async (parts) => {
          const result = await httpGet(`${service.url}/${parts.join("/")}`, { key });
          expect(result.status).toBeLessThan(500);
          if (result.status !== 200) expectErrorBody(result);
        }),
        { numRuns: 200 },
      );
    });

    it("never echo more than a short piece of a hostile value", async () => {
      const result = await httpGet(`${service.url}/v1/report?${"x".repeat(5000)}=1`, { key });
      expect(result.status).toBe(400);
      expect(result.text.length).toBeLessThan(400);
    });
  });

  describe("400 bodies name the rule", () => {
    it.each([
      ["from=2026-10-01&to=2026-10-31", "invalid_parameter", "metrics"],
      ["from=2026-10-01&to=2027-01-01&metrics=views", "range_too_long", "to"],
      ["from=2026-10-31&to=2026-10-01&metrics=views", "invalid_parameter", "to"],
      ["from=2026-10-01&to=2026-10-31&metrics=views&dimensions=campaign,ad", "unsupported_combination", "dimensions"],
      ["from=2026-10-01&to=2026-10-31&metrics=conversions&dimensions=keyword", "unsupported_metric", "metrics"],
      ["from=2026-10-01&to=2026-10-31&metrics=views&campain_id=1", "unknown_parameter", "campain_id"],
      ["from=2026-10-01&to=2026-10-31&metrics=views&page=0", "invalid_parameter", "page"],
    ])("%s", async (q, code, param) => {
      const result = await httpGet(`${service.url}/v1/report?${q}`, { key });
      expect(result.status).toBe(400);
      expect(result.json).toMatchObject({ error: { status: 400, code, param } });
    });
  });
});
