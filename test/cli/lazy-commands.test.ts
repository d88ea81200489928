/**
 * A start defines in full only the commands its words name (src/cli/command-list.ts): the placeholders of
 * the others must show in `adreport --help` exactly as the full definitions do (`adreport help` builds
 * every command). When this fails after a change to a command's description or its first flags and
 * arguments, update its entry in TOP_COMMANDS.
 */
import { describe, expect, it } from "vitest";
import { runInProcess } from "../helpers/run-cli-in-process";

describe("the placeholders of the commands not named", () => {
  it.each([80, 200])("list the commands in --help as their full definitions do (%i columns)", async (columns) => {
    const lazy = await runInProcess(["--help"], { columns });
    const full = await runInProcess(["help"], { columns });
    expect(lazy.code).toBe(0);
    expect(full.code).toBe(0);
    expect(lazy.stdout).toBe(full.stdout);
  });

  it("still suggest the nearest command", async () => {
    const result = await runInProcess(["reprot"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("(Did you mean report?)");
  });
});
