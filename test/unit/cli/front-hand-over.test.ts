/**
 * What the front (src/cli/front.ts) tells bin/adreport about a line it hands over: the action it reached,
 * so that the full build loads that action's modules beside its own start (issue 35), and nothing for a
 * line it answered or handed over for any other reason.
 */
import { closeSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { answer, reachedAction, reachedFlags } from "../../../src/cli/front";
import { tempDir } from "../../helpers/temp";

/** What the front answers `argv` with, written to files instead of this process's stdout and stderr. */
async function answered(argv: string[]): Promise<{ code: number | undefined; out: string; err: string }> {
  const dir = tempDir();
  const [outPath, errPath] = [join(dir, "out"), join(dir, "err")];
  const fds = { out: openSync(outPath, "w"), err: openSync(errPath, "w") };
  try {
    const code = await answer(argv, fds);
    return { code, out: readFileSync(outPath, "utf8"), err: readFileSync(errPath, "utf8") };
  } finally {
    closeSync(fds.out);
    closeSync(fds.err);
  }
}

describe("the action the front reached", () => {
  it("names report when a report line's flags parsed and passed their checks", async () => {
    expect(await answer(["report", "--dims", "campaign", "--from", "2026-10-01", "--to", "2026-10-31"])).toBe(
      undefined,
    );
    expect(reachedAction()).toEqual(["report"]);
    // What report's action receives: the full build runs it with these instead of parsing the line again.
    expect(reachedFlags()).toMatchObject({ dimensions: "campaign", from: "2026-10-01", to: "2026-10-31" });
  });

  it("names a subcommand by all its words", async () => {
    expect(await answer(["serve", "key", "list", "--db", "x.db"])).toBe(undefined);
    expect(reachedAction()).toEqual(["serve", "key", "list"]);
  });

  it("names nothing for a line it answered, after one it handed over", async () => {
    await answer(["report", "--dims", "campaign"]);
    const refused = await answered(["report", "--format", "nope"]);
    expect(refused).toMatchObject({ code: 2, out: "" });
    expect(refused.err).toMatch(/^adreport: unknown format "nope"/);
    expect(reachedAction()).toBe(undefined);
    expect(reachedFlags()).toBe(undefined);
    const version = await answered(["--version"]);
    expect(version).toMatchObject({ code: 0, err: "" });
    expect(version.out).toMatch(/^adreport \S+ \(Node\.js /);
    expect(reachedAction()).toBe(undefined);
  });
});
