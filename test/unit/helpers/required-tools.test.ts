/**
 * ADREPORT_TEST_REQUIRE: where it names a tool, a missing one fails the case instead of skipping it. The
 * tools' absence is faked (an empty PATH, a Chromium path and a PostgreSQL folder that do not exist);
 * nothing is uninstalled.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startPostgres } from "../../helpers/postgres-cluster";
import {
  chromiumMissing,
  millerMissing,
  promtoolMissing,
  requiredTools,
  skipMissing,
  type Tool,
  unlessRequired,
} from "../../helpers/required-tools";
import { tempDir } from "../../helpers/temp";

const nowhere = join(tempDir(), "nowhere");

/** A test context whose skip() records the note instead of skipping. */
function context() {
  const skipped: Array<string | undefined> = [];
  const skip = (note?: string): never => {
    skipped.push(note);
    throw new Error(`skipped: ${note}`);
  };
  return { skip, skipped };
}

describe("a missing tool", () => {
  const missing: Array<[Tool, () => Promise<string | undefined>]> = [
    ["miller", async () => millerMissing({ PATH: tempDir() })],
    ["chromium", async () => chromiumMissing({ ADREPORT_TEST_CHROMIUM: nowhere })],
    ["promtool", async () => promtoolMissing({ PATH: tempDir() })],
    [
      "postgres",
      async () => {
        const started = await startPostgres({ root: nowhere });
        return typeof started === "string" ? started : "started where no binaries are";
      },
    ],
  ];

  it.each(missing)("%s: found missing, with the reason", async (_tool, why) => {
    expect(await why()).toMatch(/not on PATH|is missing|not found under/);
  });

  it.each(missing)("%s: throws where ADREPORT_TEST_REQUIRE names it or says all", async (tool, why) => {
    const reason = (await why()) as string;
    for (const setting of [tool, "all", `chromium, ${tool}`]) {
      const env = { ADREPORT_TEST_REQUIRE: setting };
      expect(() => unlessRequired(tool, reason, env), setting).toThrow(`ADREPORT_TEST_REQUIRE requires ${tool}`);
      expect(() => unlessRequired(tool, reason, env)).toThrow(reason);
    }
  });

  it.each(missing)("%s: skips with the reason where the setting is unset or names others", async (tool, why) => {
    const reason = (await why()) as string;
    const others = (["postgres", "chromium", "miller"] as const).filter((t) => t !== tool).join(",");
    for (const setting of [undefined, "", others]) {
      expect(unlessRequired(tool, reason, { ADREPORT_TEST_REQUIRE: setting })).toBe(reason);
    }
  });
});

describe("skipMissing in a case", () => {
  it("fails the case (context.skip is not called) where the tool is required", () => {
    const saved = process.env.ADREPORT_TEST_REQUIRE;
    process.env.ADREPORT_TEST_REQUIRE = "miller";
    try {
      const ctx = context();
      expect(() => skipMissing(ctx, "miller", "Miller (mlr) is not on PATH")).toThrow(/requires miller/);
      expect(ctx.skipped).toEqual([]);
      expect(() => skipMissing(ctx, "chromium", "no chromium")).toThrow("skipped: no chromium");
      expect(ctx.skipped).toEqual(["no chromium"]);
    } finally {
      if (saved === undefined) delete process.env.ADREPORT_TEST_REQUIRE;
      else process.env.ADREPORT_TEST_REQUIRE = saved;
    }
  });
});

describe("ADREPORT_TEST_REQUIRE itself", () => {
  it("reads a comma list and all; a name it does not know is an error, not a silent skip", () => {
    expect([...requiredTools({ ADREPORT_TEST_REQUIRE: "all" })].sort()).toEqual([
      "chromium",
      "miller",
      "postgres",
      "promtool",
    ]);
    expect([...requiredTools({ ADREPORT_TEST_REQUIRE: " postgres , miller " })]).toEqual(["postgres", "miller"]);
    expect(requiredTools({}).size).toBe(0);
    expect(() => requiredTools({ ADREPORT_TEST_REQUIRE: "postgresql" })).toThrow('unknown tool "postgresql"');
  });
});
