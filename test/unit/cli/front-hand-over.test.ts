/**
 * What the front (src/cli/front.ts) tells bin/adreport about a line it hands over: the action it reached,
 * so that the full build loads that action's modules beside its own start (issue 35), and nothing for a
 * line it answered or handed over for any other reason.
 */
import { describe, expect, it } from "vitest";
import { answer, reachedAction, reachedFlags } from "../../../src/cli/front";

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
    expect(await answer(["report", "--format", "nope"])).toBe(2);
    expect(reachedAction()).toBe(undefined);
    expect(reachedFlags()).toBe(undefined);
    expect(await answer(["--version"])).toBe(0);
    expect(reachedAction()).toBe(undefined);
  });
});
