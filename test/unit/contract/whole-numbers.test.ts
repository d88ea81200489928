/**
 * `page`, `campaign_id` and `ad_id` over 2^53 - 1 are refused (400 invalid_parameter): JSON carries no
 * larger whole number exactly, and the service used to answer `page=999999999999999999999` as page
 * 9007199254740991. `limit` over its cap is applied as the cap. The OpenAPI pattern accepts the same set.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { openApiDocument, parseReportQuery, type QueryParams } from "../../../src/contract";

const MAX = 9007199254740991n;
const base: QueryParams = { from: "2026-11-01", to: "2026-11-07", metrics: "views" };

function patternOf(name: string): RegExp {
  const document = openApiDocument() as {
    paths: Record<string, { get: { parameters: Array<{ name: string; schema: { pattern: string } }> } }>;
  };
  const parameter = document.paths["/v1/report"]?.get.parameters.find((p) => p.name === name);
  return new RegExp(parameter?.schema.pattern as string);
}

describe("whole-number parameters beyond 2^53 - 1", () => {
  it.each(["page", "campaign_id", "ad_id"])("%s: refused with invalid_parameter, naming the bound", (name) => {
    for (const text of ["999999999999999999999", "9007199254740992", "1".padEnd(400, "0")]) {
      const result = parseReportQuery({ ...base, [name]: text });
      expect(result.ok, text).toBe(false);
      if (!result.ok) {
        expect(result.error.code).toBe("invalid_parameter");
        expect(result.error.param).toBe(name);
        expect(result.error.message).toContain("is more than 9007199254740991");
      }
    }
    const last = parseReportQuery({ ...base, [name]: "0009007199254740991" });
    expect(last.ok).toBe(true);
  });

  it("page: the largest is answered as itself", () => {
    const result = parseReportQuery({ ...base, page: "9007199254740991" });
    expect(result.ok && result.query.page).toBe(Number(MAX));
  });

  it("limit: any larger number is still applied as 1000", () => {
    const result = parseReportQuery({ ...base, limit: "999999999999999999999" });
    expect(result.ok && result.query.limit).toBe(1000);
    expect(patternOf("limit").test("999999999999999999999")).toBe(true);
  });

  it("the OpenAPI pattern of page, campaign_id and ad_id accepts exactly what the parse accepts", () => {
    const patterns = ["page", "campaign_id", "ad_id"].map((name) => [name, patternOf(name)] as const);
    const numbers = fc.oneof(
      fc.bigInt({ min: 0n, max: 10n ** 22n }),
      fc.bigInt({ min: MAX - 1000n, max: MAX + 1000n }),
      fc.bigInt({ min: 1n, max: 10n ** 17n }),
    );
    fc.assert(
      fc.property(numbers, fc.nat({ max: 3 }), (n, zeros) => {
        const text = "0".repeat(zeros) + n.toString();
        const within = n >= 1n && n <= MAX;
        for (const [name, pattern] of patterns) {
          expect(pattern.test(text), `${name} ${text}`).toBe(within);
          expect(parseReportQuery({ ...base, [name]: text }).ok, `${name} ${text}`).toBe(within);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
