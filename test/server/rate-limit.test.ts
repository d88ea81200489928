/**
 * `serve --rate-limit`: a token bucket per key on a real server, its clock injected. N requests pass, the
 * next is 429 with the contract's body and Retry-After, tokens come back as the clock moves, and every
 * answer of a valid key carries the draft-11 RateLimit fields with exact values (or none with `none`).
 */
import { describe, expect, it } from "vitest";
import type { RateLimitOptions } from "../../src/server/http/app";
import { parseRateLimit, RateLimiter } from "../../src/server/http/rate-limit";
import { httpGet } from "../helpers/http";
import { startTestService } from "../helpers/serve";

const QUERY = "/v1/report?from=2026-10-01&to=2026-10-31&metrics=views";
const WRONG = `adr_${"A".repeat(43)}`;
const KEYS = [
  { advertiser: "Acme Outdoor", ips: ["127.0.0.1"] },
  { advertiser: "Acme Outdoor", ips: ["127.0.0.1"] },
  { advertiser: "Acme Outdoor", ips: ["10.0.0.1"] },
];

async function limited(text: string, headers = true) {
  const clock = { ms: 1_000_000 };
  const limit = parseRateLimit(text);
  if (!limit) throw new Error(text);
  const rateLimit: RateLimitOptions = { limit, headers, nowMs: () => clock.ms };
  const service = await startTestService({ keys: KEYS, serve: { rateLimit } });
  const get = (key: string | undefined, query = QUERY) => httpGet(service.url + query, { key });
  return { clock, service, get, keys: service.keys as [string, string, string] };
}

describe("serve --rate-limit", () => {
  it("lets N requests of a key through, answers the next 429 with Retry-After, and refills with the clock", async () => {
    const { clock, get, keys } = await limited("5/s");
    for (let i = 1; i <= 5; i += 1) {
      const ok = await get(keys[0]);
      expect(ok.status).toBe(200);
      expect(ok.headers["ratelimit-policy"]).toBe('"default";q=5;w=1');
      expect(ok.headers.ratelimit).toBe(`"default";r=${5 - i};t=1`);
      expect(ok.headers["retry-after"]).toBeUndefined();
    }
    const refused = await get(keys[0]);
    expect(refused.status).toBe(429);
    expect(refused.headers["content-type"]).toMatch(/^application\/json/);
    expect(refused.headers["retry-after"]).toBe("1");
    expect(refused.headers.ratelimit).toBe('"default";r=0;t=1');
    expect(refused.json).toEqual({
      error: {
        status: 429,
        code: "rate_limited",
        message: "this key is over its rate limit of 5 requests a second; try again in 1 s",
      },
    });
    expect(refused.text).not.toContain(keys[0]);

    clock.ms += 199; // one token is 200 ms
    expect((await get(keys[0])).status).toBe(429);
    clock.ms += 1;
    const one = await get(keys[0]);
    expect(one.status).toBe(200);
    expect(one.headers.ratelimit).toBe('"default";r=0;t=1');
    clock.ms += 10_000; // a long pause fills the bucket, never past N
    for (let i = 0; i < 5; i += 1) expect((await get(keys[0])).status).toBe(200);
    expect((await get(keys[0])).status).toBe(429);
  });

  it("per minute: w=60, and t and Retry-After are the whole seconds until the next token", async () => {
    const { clock, get, keys } = await limited("2/min");
    expect((await get(keys[0])).headers.ratelimit).toBe('"default";r=1;t=30');
    expect((await get(keys[0])).headers["ratelimit-policy"]).toBe('"default";q=2;w=60');
    clock.ms += 10_500;
    const refused = await get(keys[0]);
    expect(refused.status).toBe(429);
    expect(refused.headers["retry-after"]).toBe("20"); // 19.5 s, rounded up
    expect(refused.headers.ratelimit).toBe('"default";r=0;t=20');
    expect(refused.json).toMatchObject({
      error: { message: "this key is over its rate limit of 2 requests a minute; try again in 20 s" },
    });
    clock.ms += 19_500;
    expect((await get(keys[0])).status).toBe(200);
  });

  it("counts HEAD like GET, with the same fields", async () => {
    const { service, keys } = await limited("2/s");
    const head = await httpGet(service.url + QUERY, { key: keys[0], method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.ratelimit).toBe('"default";r=1;t=1');
    await httpGet(service.url + QUERY, { key: keys[0], method: "HEAD" });
    expect((await httpGet(service.url + QUERY, { key: keys[0], method: "HEAD" })).status).toBe(429);
  });

  it("gives each key its own bucket", async () => {
    const { get, keys } = await limited("2/s");
    expect((await get(keys[0])).status).toBe(200);
    expect((await get(keys[0])).status).toBe(200);
    expect((await get(keys[0])).status).toBe(429);
    const other = await get(keys[1]);
    expect(other.status).toBe(200);
    expect(other.headers.ratelimit).toBe('"default";r=1;t=1');
  });

  it("leaves refused keys out: a 401 or a 403 for the address takes no token and has no RateLimit fields", async () => {
    const { get, keys } = await limited("1/s");
    for (const key of [WRONG, undefined, keys[2]]) {
      const refused = await get(key);
      expect([401, 403]).toContain(refused.status);
      expect(refused.headers.ratelimit).toBeUndefined();
      expect(refused.headers["ratelimit-policy"]).toBeUndefined();
    }
    expect((await get(keys[0])).status).toBe(200);
  });

  it("counts a request of a valid key that breaks a parameter rule, and says so in its 400", async () => {
    const { get, keys } = await limited("2/s");
    const bad = await get(keys[0], "/v1/report?from=2026-10-01&to=2026-10-31&metrics=nope");
    expect(bad.status).toBe(400);
    expect(bad.headers.ratelimit).toBe('"default";r=1;t=1');
  });

  it("with headers off, still answers 429 with Retry-After but sends no RateLimit fields", async () => {
    const { get, keys } = await limited("1/s", false);
    const ok = await get(keys[0]);
    expect(ok.status).toBe(200);
    expect(ok.headers.ratelimit).toBeUndefined();
    expect(ok.headers["ratelimit-policy"]).toBeUndefined();
    const refused = await get(keys[0]);
    expect(refused.status).toBe(429);
    expect(refused.headers["retry-after"]).toBe("1");
    expect(refused.headers.ratelimit).toBeUndefined();
  });

  it("lets a page of a --cors origin read the fields", async () => {
    const limit = { quota: 5, windowSeconds: 1 } as const;
    const service = await startTestService({
      keys: KEYS,
      serve: { corsOrigins: ["https://app.example.com"], rateLimit: { limit, headers: true } },
    });
    const answer = await httpGet(service.url + QUERY, {
      key: service.keys[0],
      headers: { origin: "https://app.example.com" },
    });
    expect(answer.headers["access-control-expose-headers"]).toBe(
      "Retry-After, WWW-Authenticate, RateLimit, RateLimit-Policy",
    );
  });

  it("is off by default: no fields, no 429", async () => {
    const service = await startTestService({ keys: KEYS });
    for (let i = 0; i < 30; i += 1) {
      const ok = await httpGet(service.url + QUERY, { key: service.keys[0] });
      expect(ok.status).toBe(200);
      expect(ok.headers.ratelimit).toBeUndefined();
    }
  });
});

describe("RateLimiter", () => {
  it("holds at most maxKeys buckets however many keys ask", () => {
    let now = 0;
    const limiter = new RateLimiter({ quota: 3, windowSeconds: 1 }, () => now, 100);
    for (let key = 1; key <= 5000; key += 1) {
      expect(limiter.take(key).allowed).toBe(true);
      now += 1;
    }
    expect(limiter.size).toBe(100);
    // The most recent keys keep their state.
    expect(limiter.take(5000).remaining).toBe(1);
  });

  it("carries fractions of a millisecond instead of losing them", () => {
    let now = 0.25;
    const limiter = new RateLimiter({ quota: 1000, windowSeconds: 1 }, () => now);
    for (let i = 0; i < 1000; i += 1) limiter.take(1);
    expect(limiter.take(1).allowed).toBe(false);
    for (let i = 0; i < 4; i += 1) {
      now += 0.25; // four quarter-milliseconds make the one millisecond of one token
      const state = limiter.take(1);
      expect(state.allowed).toBe(i === 3);
    }
  });

  it.each([
    ["20/s", { quota: 20, windowSeconds: 1 }],
    ["600/min", { quota: 600, windowSeconds: 60 }],
    [" 1/min ", { quota: 1, windowSeconds: 60 }],
  ])("parses %j", (text, expected) => {
    expect(parseRateLimit(text)).toEqual(expected);
  });

  it.each(["0/s", "20", "20/sec", "20/h", "1.5/s", "-1/s", "/s", "2000000/s", "020/s"])("refuses %j", (text) => {
    expect(parseRateLimit(text)).toBeUndefined();
  });
});
