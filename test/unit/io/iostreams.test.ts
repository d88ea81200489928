/**
 * Colour is decided per stream: its own terminal, then NO_COLOR, TERM=dumb and FORCE_COLOR. Whether a
 * descriptor is a terminal is told without the tty module where it cannot be one, and agrees with it.
 */
import { spawnSync } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { join } from "node:path";
import { isatty } from "node:tty";
import { describe, expect, it } from "vitest";
import { colorWanted, isTerminal } from "../../../src/io/iostreams";
import { tempDir } from "../../helpers/temp";

describe("colorWanted", () => {
  it("colours a terminal and nothing else", () => {
    expect(colorWanted(true, {})).toBe(true);
    expect(colorWanted(false, {})).toBe(false);
  });

  it("turns colour off with a non-empty NO_COLOR or TERM=dumb", () => {
    expect(colorWanted(true, { NO_COLOR: "1" })).toBe(false);
    expect(colorWanted(true, { NO_COLOR: "" })).toBe(true);
    expect(colorWanted(true, { TERM: "dumb" })).toBe(false);
  });

  it("lets FORCE_COLOR decide over all of those", () => {
    expect(colorWanted(false, { FORCE_COLOR: "1" })).toBe(true);
    expect(colorWanted(false, { FORCE_COLOR: "" })).toBe(true);
    expect(colorWanted(true, { FORCE_COLOR: "1", NO_COLOR: "1" })).toBe(true);
    expect(colorWanted(true, { FORCE_COLOR: "0" })).toBe(false);
    expect(colorWanted(true, { FORCE_COLOR: "false" })).toBe(false);
  });
});

describe("isTerminal", () => {
  it("is false, as tty.isatty says, for a file, /dev/null, /dev/full and a closed descriptor", () => {
    for (const path of [join(tempDir(), "file"), "/dev/null", "/dev/full"]) {
      const fd = openSync(path, "w");
      try {
        expect(isTerminal(fd), path).toBe(false);
        expect(isatty(fd), path).toBe(false);
      } finally {
        closeSync(fd);
      }
    }
    const closed = openSync("/dev/null", "r");
    closeSync(closed);
    expect(isTerminal(closed)).toBe(false);
  });

  const root = join(import.meta.dirname, "..", "..", "..");
  const tsx = join(root, "node_modules", ".bin", "tsx");
  const probe = join(root, "test", "helpers", "terminal-probe.ts");

  it("agrees with tty.isatty on pipes", () => {
    const result = spawnSync(tsx, [probe], { encoding: "utf8", stdio: ["pipe", "pipe", "pipe"] });
    expect(result.stdout.trim(), result.stderr).toBe("true:false,true:false,true:false");
  });

  const hasScript = spawnSync("script", ["--version"]).status === 0;
  it.skipIf(!hasScript)("is true, as tty.isatty says, on a pseudo-terminal (script)", () => {
    const result = spawnSync("script", ["-qc", `${tsx} ${probe}`, "/dev/null"], { encoding: "utf8" });
    expect(result.stdout).toContain("true:true,true:true,true:true");
  });
});
