/**
 * `adreport serve --rate-limit` as a command: bad values are one line and exit 2, a good one limits each key
 * and the answers (200 and 429) are what the OpenAPI document declares, headers included.
 */
import { describe, expect, it } from "vitest";
import { openApiDocument } from "../../../src/contract";
import { ACME_KEY } from "../../helpers/demo-service";
import { httpGet } from "../../helpers/http";
import { openApiChecker } from "../../helpers/openapi-check";
import { runInProcess } from "../../helpers/run-cli-in-process";
import { startTestService } from "../../helpers/serve";
import { serveInProcess } from "../../helpers/serve-in-process";

// The demo data (to 2026-11-01) and a key for Acme Outdoor from 127.0.0.1; its own server goes unused.
const service = await startTestService({ keys: [ACME_KEY] });
const db = service.dbPath;
const KEY = service.keys[0] as string;
const QUERY = "/v1/report?from=2026-10-29&to=2026-10-31&metrics=views";

describe("serve --rate-limit", () => {
  it.each([
    [["--rate-limit", "20"], "adreport: --rate-limit: expected N/s or N/min, e.g. 20/s\n"],
    [["--rate-limit", "0/s"], "adreport: --rate-limit: expected N/s or N/min, e.g. 20/s\n"],
    [["--rate-limit", "20/hour"], "adreport: --rate-limit: expected N/s or N/min, e.g. 20/s\n"],
    [
      ["--rate-limit", "20/s", "--rate-limit-headers", "draft"],
      'adreport: --rate-limit-headers: expected ietf or none, not "draft"\n',
    ],
    [["--rate-limit-headers", "none"], "adreport: --rate-limit-headers: only with --rate-limit N/s or N/min\n"],
  ])("%j is refused in one line, exit 2", async (args, line) => {
    const result = await runInProcess(["serve", "--db", db, "--port", "0", ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(line);
    expect(result.stdout).toBe("");
  });

  it("answers 429 past the bucket, and every answer matches the OpenAPI document with its headers declared", async () => {
    const serve = await serveInProcess(["--db", db, "--quiet", "--rate-limit", "3/min"]);
    const answers = [];
    for (let i = 0; i < 4; i += 1) answers.push(await httpGet(serve.url + QUERY, { key: KEY }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    expect(answers[0]?.headers["ratelimit-policy"]).toBe('"default";q=3;w=60');
    expect(answers[0]?.headers.ratelimit).toMatch(/^"default";r=2;t=(19|20)$/);
    expect(Number(answers[3]?.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    const document = openApiDocument();
    const checker = await openApiChecker(document);
    for (const answer of answers) expect(checker.problems("GET", "/v1/report", answer)).toEqual([]);
    const responses = (document.paths as Record<string, { get: { responses: Record<string, { headers?: object }> } }>)[
      "/v1/report"
    ]?.get.responses;
    expect(Object.keys(responses?.["200"]?.headers ?? {})).toEqual(["RateLimit-Policy", "RateLimit"]);
    expect(Object.keys(responses?.["429"]?.headers ?? {})).toEqual(["Retry-After", "RateLimit-Policy", "RateLimit"]);
    expect((await serve.stop()).code).toBe(0);
  });
});
