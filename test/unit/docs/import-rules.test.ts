/**
 * The import rules are allow lists (scripts/import-rules.mjs): every file of src/ imports only the folders its
 * own folder lists, and docs/development.md shows that same table to a newcomer.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { folderOf, importViolations, rulesTable } from "../../../scripts/import-rules.mjs";

const ROOT = join(import.meta.dirname, "..", "..", "..");

describe("import rules", () => {
  it("every import of src/ is one its folder allows", () => {
    expect(importViolations()).toEqual([]);
  });

  it("a file belongs to the most specific folder listed", () => {
    expect(folderOf("engine/plan/plan.ts")).toBe("engine/plan");
    expect(folderOf("engine/context.ts")).toBe("engine");
    expect(folderOf("server/http/app.ts")).toBe("server");
    expect(folderOf("server/index.ts")).toBe("server/index");
  });

  it("docs/development.md shows the rules as they are", () => {
    const doc = readFileSync(join(ROOT, "docs", "development.md"), "utf8");
    expect(doc).toContain(rulesTable());
  });
});
