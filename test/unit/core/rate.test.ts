/** `--rate` and the `rate` setting: N/s or N/min, read once, shown as written. */
import { describe, expect, it } from "vitest";
import { checkSetting } from "../../../src/config/settings";
import { formatRate, parseRate, rateIntervalMs } from "../../../src/core/rate";

describe("parseRate", () => {
  it.each([
    ["10/s", { n: 10, per: "s" }],
    ["2.5/s", { n: 2.5, per: "s" }],
    ["120/min", { n: 120, per: "min" }],
    [" 30 / minute ", { n: 30, per: "min" }],
    ["5/sec", { n: 5, per: "s" }],
    ["1/m", { n: 1, per: "min" }],
  ])("reads %j", (text, rate) => {
    expect(parseRate(text)).toEqual(rate);
  });

  it.each(["", "10", "0/s", "-1/s", "10/h", "ten/s", "10/s/s", "1e3/s"])("refuses %j", (text) => {
    expect(parseRate(text)).toBeUndefined();
  });

  it("spaces requests by the rate's interval", () => {
    expect(rateIntervalMs({ n: 20, per: "s" })).toBe(50);
    expect(rateIntervalMs({ n: 120, per: "min" })).toBe(500);
    expect(formatRate({ n: 120, per: "min" })).toBe("120/min");
  });
});

describe("the rate setting", () => {
  it("keeps a rate as N/s or N/min, and says what it expects otherwise", () => {
    expect(checkSetting("rate", "30 / minute")).toEqual({ ok: true, value: "30/min" });
    expect(checkSetting("rate", "fast")).toEqual({
      ok: false,
      message: "expected a rate such as 10/s or 120/min (at most 1000/s)",
    });
    expect(checkSetting("rate", "5000/s").ok).toBe(false);
  });
});
