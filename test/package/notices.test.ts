/** THIRD-PARTY-NOTICES names every package the bundle carries, with its licence text, and is current. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { thirdPartyNotices } from "../../scripts/third-party-notices.mjs";

const ROOT = join(import.meta.dirname, "..", "..");

describe("THIRD-PARTY-NOTICES", () => {
  it("is what `npm run docs` makes from the bundle's inputs now", async () => {
    const committed = readFileSync(join(ROOT, "THIRD-PARTY-NOTICES"), "utf8");
    expect(committed, "stale: run `npm run docs` and commit THIRD-PARTY-NOTICES").toBe(await thirdPartyNotices());
  });

  it("carries the licence text of the packages the card names and of what is inlined", () => {
    const text = readFileSync(join(ROOT, "THIRD-PARTY-NOTICES"), "utf8");
    for (const name of ["commander", "undici", "zod", "fastify", "pg", "chart.js", "better-sqlite3", "cli-table3"]) {
      expect(text).toMatch(new RegExp(`^${name.replace(".", "\\.")} \\d+\\.\\d+\\.\\d+ \\(`, "m"));
    }
    expect(text).toContain("Permission is hereby granted, free of charge");
    expect(text).toContain("SQLite (public domain");
  });
});
