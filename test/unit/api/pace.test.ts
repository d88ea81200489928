/**
 * The pacer on an injected clock: the user's cap, the service's announced bucket, AIMD without it,
 * Retry-After, and a wait past the deadline or a daily quota given up on at once.
 */
import { describe, expect, it } from "vitest";
import { Pacer, type PacerOptions } from "../../../src/api/pace";
import { QuotaError } from "../../../src/core/errors";
import { ExitCode } from "../../../src/core/exit-codes";
import {
  boundState,
  EMPTY_PACE,
  MemoryPaceLedger,
  type PaceLedger,
  reserveSlot,
  type SharedPace,
  type TurnRequest,
  takeTurn,
} from "../../../src/core/pace-slot";

const T0 = Date.parse("2026-11-25T12:00:00Z");

/** A clock that moves only when the pacer sleeps; `sent` keeps when each grant went. */
function clocked(options: PacerOptions = {}) {
  const clock = { t: T0 };
  const pacer = new Pacer({
    now: () => clock.t,
    sleep: async (ms) => {
      clock.t += ms;
    },
    ...options,
  });
  const sent: number[] = [];
  const grant = async () => {
    const ticket = await pacer.grant();
    sent.push(clock.t);
    return ticket;
  };
  return { clock, pacer, sent, grant };
}

function mostInAnyWindow(times: readonly number[], windowMs: number): number {
  return Math.max(...times.map((t) => times.filter((u) => u >= t && u < t + windowMs).length));
}

const OK = { "content-type": "application/json" };

describe("reserveSlot (the shared schedule)", () => {
  it("lets `burst` go at once after a quiet spell, then one per interval, and honours a floor", () => {
    let state = { tat: 0 };
    const times: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const slot = reserveSlot(state, { now: 1000, intervalMs: 100, burst: 3, floor: 0 });
      state = slot.state;
      times.push(slot.sendAt);
    }
    expect(times).toEqual([1000, 1000, 1000, 1100, 1200]);
    expect(reserveSlot(state, { now: 1000, intervalMs: 100, burst: 1, floor: 5000 }).sendAt).toBe(5000);
  });
});

describe("Pacer", () => {
  it("never exceeds the user's cap: 10/s is one request every 100 ms, at most 10 in any second", async () => {
    const { sent, grant } = clocked({ cap: { n: 10, per: "s" } });
    for (let i = 0; i < 50; i += 1) await grant();
    expect(mostInAnyWindow(sent, 1000)).toBe(10);
    for (let i = 1; i < sent.length; i += 1)
      expect((sent[i] as number) - (sent[i - 1] as number)).toBeGreaterThanOrEqual(100);
  });

  it("uses what the service says is left, then its pace, and waits one interval (not the window) when none is", async () => {
    const { pacer, sent, grant, clock } = clocked();
    const first = await grant();
    pacer.answered(first, 200, { ...OK, "ratelimit-policy": '"default";q=20;w=1', ratelimit: '"default";r=3;t=1' });
    for (let i = 0; i < 6; i += 1) await grant();
    // Three at once (what is left), then one every 50 ms (20/s, with a small margin).
    expect(sent.slice(1, 4)).toEqual([T0, T0, T0]);
    expect((sent[4] as number) - T0).toBeCloseTo(51, 0);
    expect((sent[6] as number) - (sent[5] as number)).toBeCloseTo(51, 0);
    const last = await grant();
    pacer.answered(last, 200, { "ratelimit-policy": '"default";q=20;w=1', ratelimit: '"default";r=0;t=1' });
    const before = clock.t;
    await grant();
    expect(clock.t - before).toBeLessThan(120);
  });

  it("without a policy, spreads what is left over what remains of the window", async () => {
    const { pacer, sent, grant } = clocked();
    pacer.answered(await grant(), 200, { ratelimit: '"d";r=4;t=2' });
    for (let i = 0; i < 3; i += 1) await grant();
    expect((sent[2] as number) - (sent[1] as number)).toBeCloseTo(510, 0);
    expect((sent[3] as number) - (sent[2] as number)).toBeCloseTo(510, 0);
  });

  it("counts the requests still in flight against what the service says is left", async () => {
    const { pacer, sent, grant } = clocked();
    const tickets = [];
    for (let i = 0; i < 4; i += 1) tickets.push(await grant());
    // The first answer says 4 are left, but 3 requests went after it: one more may go now, not four.
    pacer.answered(tickets[0] as never, 200, { "ratelimit-policy": '"d";q=10;w=1', ratelimit: '"d";r=4;t=1' });
    await grant();
    await grant();
    expect(sent[4]).toBe(T0);
    expect((sent[5] as number) - T0).toBeGreaterThanOrEqual(100);
  });

  it("without the fields: no pace until a 429, then half the rate accepted, recovering on successes", async () => {
    const { pacer, grant, clock } = clocked();
    const tickets = [];
    for (let i = 0; i < 20; i += 1) {
      const ticket = await grant();
      pacer.answered(ticket, 200, OK);
      clock.t += 10;
    }
    expect(pacer.perSecond()).toBeUndefined();
    // A volley of 429s to requests sent before the decrease halves the rate once.
    for (let i = 0; i < 4; i += 1) tickets.push(await grant());
    for (const ticket of tickets) pacer.answered(ticket, 429, OK);
    expect(pacer.perSecond()).toBe(10);
    expect(pacer.stats.throttled).toBe(4);
    const next = await grant();
    pacer.answered(next, 429, OK);
    expect(pacer.perSecond()).toBe(5);
    for (let i = 0; i < 12; i += 1) pacer.answered(await grant(), 200, OK);
    expect(pacer.perSecond()).toBeGreaterThan(8);
    expect(pacer.perSecond()).toBeLessThan(10);
  });

  it("sends nothing before a 429's Retry-After, whichever request asks next", async () => {
    const { pacer, grant, clock } = clocked();
    const ticket = await grant();
    pacer.answered(ticket, 429, { "retry-after": "2" });
    await grant();
    expect(clock.t - T0).toBe(2000);
  });

  it.each([
    ["1.5", 1500],
    ["5, 10", 5000],
    [" 3 ", 3000],
  ])("reads Retry-After %j as seconds (never as a date of 2001, which is no wait at all)", async (value, wait) => {
    const { pacer, grant, clock } = clocked();
    pacer.answered(await grant(), 429, { "retry-after": value });
    await grant();
    expect(clock.t - T0).toBe(wait);
  });

  it("a wait past the deadline throws QuotaError at once (exit 5), saying how long the service asked for", async () => {
    const { pacer, grant, clock } = clocked();
    pacer.answered(await grant(), 429, { "retry-after": "120" });
    const error = await pacer.grant(undefined, T0 + 30_000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotaError);
    expect((error as QuotaError).exitCode).toBe(ExitCode.unavailable);
    expect((error as QuotaError).message).toBe(
      "the service answered 429; the service asks to wait 120 s (until 2026-11-25 12:02 UTC), longer than the 30 s left of the time allowed",
    );
    expect(clock.t).toBe(T0);
  });

  it("a wait and a time left that round alike are said in tenths, not as `1 s, longer than the 1 s left`", async () => {
    const { pacer, grant } = clocked();
    pacer.answered(await grant(), 429, { "retry-after": "1.4" });
    const error = await pacer.grant(undefined, T0 + 1100).catch((e: unknown) => e);
    expect((error as QuotaError).message).toMatch(
      /asks to wait 1\.4 s .*, longer than the 1\.1 s left of the time allowed$/,
    );
  });

  it("a spent daily quota is said to be one, without waiting for it", async () => {
    const { pacer, grant } = clocked();
    pacer.answered(await grant(), 200, {
      "ratelimit-policy": '"daily";q=1000;w=86400',
      ratelimit: '"daily";r=0;t=18000',
    });
    const error = (await grant().catch((e: unknown) => e)) as QuotaError;
    expect(error).toBeInstanceOf(QuotaError);
    expect(error.daily).toBe(true);
    expect(error.message).toMatch(
      /^the daily quota is spent \(its RateLimit fields say none is left\); the service asks to wait 5 h/,
    );
  });

  it("two pacers on one ledger keep to one pace between them", async () => {
    const ledger = new MemoryPaceLedger();
    const clock = { t: T0 };
    const sleep = async (ms: number) => {
      clock.t += ms;
    };
    const options = { ledger, now: () => clock.t, sleep };
    const [a, b] = [new Pacer(options), new Pacer(options)];
    const policy = { "ratelimit-policy": '"d";q=10;w=1', ratelimit: '"d";r=0;t=1' };
    a.answered(await a.grant(), 200, policy);
    b.answered(await b.grant(), 200, policy);
    const sent: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      await (i % 2 === 0 ? a : b).grant();
      sent.push(clock.t);
    }
    expect(mostInAnyWindow(sent, 1000)).toBeLessThanOrEqual(10);
  });
});

describe("Pacer: every wait follows the one rule (core/wait.ts)", () => {
  it("the old fields with none left and a reset of 2 h: the daily quota is spent, said at once", async () => {
    const { pacer, grant, clock } = clocked();
    pacer.answered(await grant(), 200, { "ratelimit-remaining": "0", "ratelimit-reset": "7200" });
    const error = (await grant().catch((e: unknown) => e)) as QuotaError;
    expect(error).toBeInstanceOf(QuotaError);
    expect(error.daily).toBe(true);
    expect(error.message).toBe(
      "the daily quota is spent (its RateLimit fields say none is left); the service asks to wait 2 h (until 2026-11-25 14:00 UTC)",
    );
    expect(clock.t).toBe(T0);
  });

  it("a reset past 2^31 ms never reaches the sleep: it ends the run instead", async () => {
    const slept: number[] = [];
    const { pacer, grant } = clocked({ sleep: async (ms) => void slept.push(ms) });
    pacer.answered(await grant(), 200, { ratelimit: '"default";r=0;t=99999999999' });
    await expect(grant()).rejects.toBeInstanceOf(QuotaError);
    expect(slept).toEqual([]);
  });

  it("a pace slower than the longest wait accepted ends the run at the request that would wait for it", async () => {
    const { pacer, grant } = clocked();
    pacer.answered(await grant(), 200, { "ratelimit-policy": '"d";q=1;w=600', ratelimit: '"d";r=0;t=600' });
    const error = (await grant().catch((e: unknown) => e)) as QuotaError;
    expect(error).toBeInstanceOf(QuotaError);
    expect(error.message).toMatch(
      /^its RateLimit fields allow 1 request every 10 min; the service asks to wait 11 min/,
    );
  });

  it("requests queued behind a slow pace wait their turns: the rule holds the pace between two, not the queue", async () => {
    const { pacer, grant, clock } = clocked();
    pacer.answered(await grant(), 200, { "ratelimit-policy": '"d";q=1;w=60', ratelimit: '"d";r=0;t=60' });
    // Eight pages in flight at once: the last one's turn is 8 minutes away, each 61 s after the one before.
    const granted = await Promise.all(Array.from({ length: 8 }, () => pacer.grant()));
    expect(granted).toHaveLength(8);
    expect(clock.t - T0).toBeGreaterThan(8 * 60_000);
  });

  it("a turn past the deadline ends the run at once, saying the pace and the time left", async () => {
    const { pacer, grant, clock } = clocked();
    pacer.answered(await grant(), 200, { "ratelimit-policy": '"d";q=1;w=25', ratelimit: '"d";r=0;t=25' });
    const error = (await pacer.grant(undefined, T0 + 10_000).catch((e: unknown) => e)) as QuotaError;
    expect(error.message).toMatch(
      /^its RateLimit fields allow 1 request every 25 s; the service asks to wait 26 s .*, longer than the 10 s left of the time allowed$/,
    );
    expect(clock.t).toBe(T0);
  });

  it("a short wait past the deadline is left to --max-time, whose message says how far the run got", async () => {
    const { pacer, grant, clock } = clocked();
    pacer.answered(await grant(), 200, { "ratelimit-policy": '"d";q=10;w=1', ratelimit: '"d";r=0;t=1' });
    await pacer.grant(undefined, T0 + 50);
    expect(clock.t - T0).toBeCloseTo(102, 0);
  });

  it("tells of every wait before it starts (the command says a short one only with --verbose)", async () => {
    const order: string[] = [];
    const clock = { t: T0 };
    const sleep = async (ms: number) => {
      order.push(`sleep ${ms}`);
      clock.t += ms;
    };
    const pacer = new Pacer({ now: () => clock.t, sleep });
    const grant = () => pacer.grant();
    pacer.answered(await grant(), 429, { "retry-after": "30" });
    await pacer.grant(undefined, undefined, (event) => order.push(`${event.source} ${event.waitMs}: ${event.reason}`));
    pacer.answered(await grant(), 429, { "retry-after": "2" });
    await pacer.grant(undefined, undefined, (event) => order.push(`${event.source} ${event.waitMs}: ${event.reason}`));
    expect(order).toEqual([
      "service 30000: the service answered 429",
      "sleep 30000",
      "service 2000: the service answered 429",
      "sleep 2000",
    ]);
  });
});

describe("what a run tells the key's other runs", () => {
  it("only what the service said and the requests sent, never the turns it reserved ahead", async () => {
    const shared: TurnRequest[] = [];
    const memory = new MemoryPaceLedger();
    const ledger: PaceLedger = {
      take: (request) => memory.take(request),
      share: (request) => {
        shared.push(request);
        return memory.share(request);
      },
    };
    // Time stands still and a wait never ends: the pages waiting for their turn stay reserved, not sent.
    const pacer = new Pacer({ ledger, now: () => T0, sleep: () => new Promise<void>(() => {}) });
    const policy = { "ratelimit-policy": '"default";q=1;w=5' };
    pacer.answered(await pacer.grant(), 200, policy);
    const second = await pacer.grant();
    for (let i = 0; i < 3; i += 1) void pacer.grant();
    // The second page's answer: none left of 1 request every 5 s. Three pages wait, none of them sent.
    pacer.answered(second, 200, { ...policy, ratelimit: '"default";r=0;t=5' });
    // A run whose --max-time has nearly passed gives up, and tells the others what it knew first.
    await expect(pacer.grant(undefined, T0 + 1000)).rejects.toBeInstanceOf(QuotaError);
    const interval = 5000 * 1.02;
    expect(shared.length).toBeGreaterThan(0);
    for (const request of shared) expect(request.floor).toBeLessThanOrEqual(T0 + interval);
  });
});

describe("the shared schedule (core/pace-slot.ts)", () => {
  const now = T0;

  it("holds no one past what the pace that made it allows: a planted or older record is bounded", () => {
    // An older version's record (no pace): it holds no one.
    expect(boundState({ tat: now + 86_000, intervalMs: 0, burst: 1, hold: 0 }, now).tat).toBe(now);
    // Five turns reserved ahead at one every 10 s, burst 1: at most two intervals are kept.
    expect(boundState({ tat: now + 51_000, intervalMs: 10_200, burst: 1, hold: 0 }, now).tat).toBe(now + 20_400);
    // A pace no run keeps (slower than the longest wait), a hold longer than any run waits for.
    expect(boundState({ tat: now + 900_000, intervalMs: 600_000, burst: 1, hold: 0 }, now).tat).toBe(now);
    expect(boundState({ tat: 0, intervalMs: 100, burst: 1, hold: now + 600_000 }, now).hold).toBe(0);
    expect(boundState({ tat: Number.NaN, intervalMs: 100, burst: 1.5, hold: Number.NaN }, now)).toEqual({
      tat: 0,
      intervalMs: 0,
      burst: 1,
      hold: 0,
    });
  });

  it("a turn is taken only when it is due: asking moves nothing, a request without a pace moves nothing", () => {
    const paced = { now, intervalMs: 100, burst: 1, floor: 0, hold: 0 };
    const first = takeTurn(EMPTY_PACE, paced, true);
    expect(first.turn.sendAt).toBe(now);
    const state = first.state as SharedPace;
    expect(state.tat).toBe(now + 100);
    const early = takeTurn(state, { ...paced, now: now + 40 }, true);
    expect(early.turn.sendAt).toBe(now + 100);
    expect(early.state).toBeUndefined();
    const unpaced = takeTurn(state, { ...paced, now: now + 150, intervalMs: 0 }, true);
    expect(unpaced.turn.sendAt).toBe(now + 150);
    expect(unpaced.state).toBeUndefined();
  });
});
