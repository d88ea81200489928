/** `adreport serve openapi` and `GET /openapi.json`: the same document, served without a key. */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { httpGet } from "../../helpers/http";
import { openApiChecker } from "../../helpers/openapi-check";
import { runInProcess } from "../../helpers/run-cli-in-process";
import { serveInProcess } from "../../helpers/serve-in-process";
import { tempDir } from "../../helpers/temp";

describe("the OpenAPI document", () => {
  it("is printed by `serve openapi` and answered by serve at GET /openapi.json without a key", async () => {
    const printed = await runInProcess(["serve", "openapi"]);
    expect(printed.code).toBe(0);
    expect(printed.stderr).toBe("");
    const db = join(tempDir(), "o.db");
    expect((await runInProcess(["serve", "init", "--db", db])).code).toBe(0);
    const serve = await serveInProcess(["--db", db, "--quiet"]);
    const answer = await httpGet(`${serve.url}/openapi.json`);
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toMatch(/^application\/json/);
    // The same document but for `servers`: serve names the address it listens on, the printed one serve's default.
    const withoutServers = (text: string) => ({ ...(JSON.parse(text) as object), servers: undefined });
    expect(withoutServers(answer.text)).toEqual(withoutServers(printed.stdout));
    expect(JSON.parse(answer.text).servers).toEqual([{ url: serve.url, description: "this adreport serve" }]);
    expect(JSON.parse(printed.stdout).servers[0].url).toBe("http://127.0.0.1:8080");
    // The key is still asked for where the data is.
    const refused = await httpGet(`${serve.url}/v1/report?from=2026-10-01&to=2026-10-02&metrics=views`);
    expect(refused.status).toBe(401);
    const checker = await openApiChecker(answer.json);
    expect(checker.problems("GET", "/v1/report", refused)).toEqual([]);
    await serve.stop();
  });

  it("makes the checker refuse answers the document does not allow", async () => {
    const checker = await openApiChecker(JSON.parse((await runInProcess(["serve", "openapi"])).stdout));
    const json = { "content-type": "application/json" };
    expect(checker.problems("GET", "/v1/report", { status: 418, headers: json, json: {} })).not.toEqual([]);
    expect(
      checker.problems("GET", "/v1/report", {
        status: 401,
        headers: json,
        json: { error: { status: 401, code: "rate_limited", message: "x" } },
      }),
    ).not.toEqual([]);
    const meta = {
      granularity: "total",
      dimensions: [],
      metrics: ["views"],
      total: 1,
      page: 1,
      limit: 1,
      has_more: false,
    };
    expect(
      checker.problems("GET", "/v1/report", { status: 200, headers: json, json: { meta, data: [{}] } }),
    ).not.toEqual([]);
    expect(
      checker.problems("GET", "/v1/report", {
        status: 200,
        headers: json,
        json: { meta, data: [{ dimensions: {}, metrics: { views: 1 } }] },
      }),
    ).toEqual([]);
  });
});
