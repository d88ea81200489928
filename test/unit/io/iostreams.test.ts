/** Colour is decided per stream: its own terminal, then NO_COLOR, TERM=dumb and FORCE_COLOR. */
import { describe, expect, it } from "vitest";
import { colorWanted } from "../../../src/io/iostreams";

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
