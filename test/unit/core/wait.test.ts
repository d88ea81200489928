/** The one clamp between a delay and a timer: nothing negative, NaN or past what a Node timer holds. */
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { timerDelay } from "../../../src/core/wait";

describe("timerDelay", () => {
  it.each([
    [0, 0],
    [-5, 0],
    [Number.NaN, 0],
    [1500, 1500],
    [2 ** 31, 2 ** 31 - 1],
    [99_999_999_000, 2 ** 31 - 1],
    [Number.POSITIVE_INFINITY, 2 ** 31 - 1],
  ])("%s ms → %s ms", (given, expected) => {
    expect(timerDelay(given)).toBe(expected);
  });

  it("a delay it gives makes no TimeoutOverflowWarning and does not fire early", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    const controller = new AbortController();
    let fired = false;
    const timer = sleep(timerDelay(99_999_999_000), undefined, { signal: controller.signal }).then(
      () => {
        fired = true;
      },
      () => undefined,
    );
    await sleep(20);
    controller.abort();
    await timer;
    process.off("warning", onWarning);
    expect(fired).toBe(false);
    expect(warnings).not.toContain("TimeoutOverflowWarning");
  });
});
