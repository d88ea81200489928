/** What a service says of its rate limit, in the IETF draft's fields and the older forms still common. */
import { describe, expect, it } from "vitest";
import { readRateSignal } from "../../../src/api/rate-headers";

const NOW = Date.parse("2026-11-25T12:00:00Z");

describe("readRateSignal", () => {
  it("reads the structured fields of draft-ietf-httpapi-ratelimit-headers", () => {
    expect(readRateSignal({ "ratelimit-policy": '"default";q=20;w=1', ratelimit: '"default";r=5;t=1' }, NOW)).toEqual({
      quota: 20,
      windowMs: 1000,
      remaining: 5,
      resetMs: 1000,
      spentMs: undefined,
    });
  });

  it("paces by the policy of the shortest window and tells when a longer one is spent", () => {
    const signal = readRateSignal(
      {
        "ratelimit-policy": '"burst";q=100;w=60, "daily";q=1000;w=86400',
        ratelimit: '"burst";r=40;t=12, "daily";r=0;t=18000',
      },
      NOW,
    );
    expect(signal).toEqual({ quota: 100, windowMs: 60_000, remaining: 40, resetMs: 12_000, spentMs: 18_000_000 });
  });

  it("reads draft-07's dictionary and the older separate fields", () => {
    expect(readRateSignal({ "ratelimit-policy": "10;w=1", ratelimit: "limit=10, remaining=3, reset=1" }, NOW)).toEqual({
      quota: 10,
      windowMs: 1000,
      remaining: 3,
      resetMs: 1000,
      spentMs: undefined,
    });
    expect(
      readRateSignal({ "ratelimit-limit": "10, 10;w=1", "ratelimit-remaining": "7", "ratelimit-reset": "2" }, NOW),
    ).toEqual({ quota: 10, windowMs: 1000, remaining: 7, resetMs: 2000, spentMs: undefined });
  });

  it("reads X-RateLimit-*, whose reset may be a Unix time", () => {
    const reset = String(NOW / 1000 + 30);
    expect(
      readRateSignal({ "x-ratelimit-limit": "60", "x-ratelimit-remaining": "0", "x-ratelimit-reset": reset }, NOW),
    ).toEqual({ quota: 60, windowMs: undefined, remaining: 0, resetMs: 30_000, spentMs: 30_000 });
  });

  it("tells nothing from answers without the fields, or with unreadable ones", () => {
    expect(readRateSignal({ "content-type": "application/json" }, NOW)).toBeUndefined();
    expect(readRateSignal({ ratelimit: "garbage", "ratelimit-policy": "?" }, NOW)).toBeUndefined();
  });
});
