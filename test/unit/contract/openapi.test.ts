/**
 * The OpenAPI document: the committed copy is the generated one (`npm run docs` regenerates it), it is valid
 * OpenAPI 3.1 by swagger-parser, and what it says of the query and of rows is what the code checks.
 */
import { readFileSync } from "node:fs";
import SwaggerParser from "@apidevtools/swagger-parser";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ERROR_STATUS,
  openApiDocument,
  openApiText,
  parseReportQuery,
  QUERY_PARAMS,
  reportPageSchema,
  reportRowSchema,
} from "../../../src/contract";

describe("the OpenAPI document", () => {
  it("is committed as generated (run `npm run docs` after changing the contract)", () => {
    expect(readFileSync("docs/openapi.json", "utf8")).toBe(openApiText());
  });

  it("is valid OpenAPI 3.1 for swagger-parser", async () => {
    const api = await SwaggerParser.validate(structuredClone(openApiDocument()) as never);
    expect((api as { openapi: string }).openapi).toBe("3.1.0");
  });

  const operation = openApiDocument() as {
    paths: Record<
      string,
      {
        get: {
          parameters: Array<{ name: string; required: boolean; schema: { pattern: string } }>;
          responses: Record<string, unknown>;
        };
      }
    >;
    components: { securitySchemes: Record<string, { scheme: string }> };
  };
  const get = operation.paths["/v1/report"]?.get;

  it("lists every parameter, every error status and the bearer scheme", () => {
    expect(get?.parameters.map((p) => p.name)).toEqual([...QUERY_PARAMS]);
    expect(get?.parameters.filter((p) => p.required).map((p) => p.name)).toEqual(["from", "to", "metrics"]);
    const statuses = new Set(["200", ...Object.values(ERROR_STATUS).map(String)]);
    expect(new Set(Object.keys(get?.responses ?? {}))).toEqual(statuses);
    expect(operation.components.securitySchemes.bearer?.scheme).toBe("bearer");
    const text = openApiText();
    for (const code of Object.keys(ERROR_STATUS)) expect(text).toContain(`"${code}"`);
  });

  const patternOf = (name: string) => new RegExp(get?.parameters.find((p) => p.name === name)?.schema.pattern ?? "$^");
  const BASE = { from: "2026-10-01", to: "2026-10-02", metrics: "views" };
  const accepted = (name: string, value: string) => parseReportQuery({ ...BASE, [name]: value }).ok;

  it.each([
    ["granularity", fc.oneof(fc.constantFrom("hour", "Daily", "WEEKLY", "month", "monthly", "hourly"), fc.string())],
    ["limit", fc.oneof(fc.nat().map(String), fc.string(), fc.constantFrom("0", "007", "-1", "1e3", " 1"))],
    ["page", fc.oneof(fc.nat().map(String), fc.string())],
    ["campaign_id", fc.oneof(fc.nat().map(String), fc.string())],
    [
      "from",
      fc.oneof(
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        fc.string(),
      ),
    ],
  ])("the pattern of %s refuses what the service refuses", (name, values) => {
    fc.assert(
      fc.property(values, (value) => {
        // A value the pattern admits may still break a rule the pattern cannot say (a date that does not
        // exist); one the service accepts must always match the pattern.
        if (accepted(name, value)) expect(patternOf(name).test(value)).toBe(true);
        if (!patternOf(name).test(value)) expect(accepted(name, value)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it("declares rows as the page check sees them", () => {
    const value = fc.oneof(fc.string(), fc.double(), fc.integer(), fc.constant(null), fc.boolean());
    // zod's record passes over a key named __proto__ (its guard against prototype pollution), which the
    // declaration cannot say; the page check reads it as JSON.parse made it (the case below).
    const key = fc.string().filter((name) => name !== "__proto__");
    const row = fc.record({
      dimensions: fc.oneof(fc.dictionary(key, value), value),
      metrics: fc.oneof(fc.dictionary(key, fc.oneof(fc.double(), fc.integer(), fc.string())), value),
    });
    fc.assert(
      fc.property(row, (r) => {
        const page = {
          meta: { granularity: "total", dimensions: [], metrics: [], total: 1, page: 1, limit: 1, has_more: false },
          data: [r],
        };
        expect(reportPageSchema.safeParse(page).success).toBe(reportRowSchema.safeParse(r).success);
      }),
      { numRuns: 500 },
    );
  });

  it("refuses a bad value under a key named __proto__, which the declaration's zod passes over", () => {
    const page = {
      meta: { granularity: "total", dimensions: [], metrics: [], total: 1, page: 1, limit: 1, has_more: false },
      data: [JSON.parse('{"dimensions":{"__proto__":false},"metrics":{"__proto__":"1"}}')],
    };
    expect(reportPageSchema.safeParse(page).success).toBe(false);
  });
});
