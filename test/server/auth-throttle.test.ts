/** Many failed authentications from one address: 429 with Retry-After for that address only, for a while. */
import { describe, expect, it } from "vitest";
import { httpGet } from "../helpers/http";
import { startTestService } from "../helpers/serve";

const QUERY = "/v1/report?from=2026-10-01&to=2026-10-31&metrics=views";
const WRONG = `adr_${"A".repeat(43)}`;

describe("--auth-failure-limit", () => {
  it("answers an address 429 after the limit, lets other addresses in, and lets it in again later", async () => {
    let now = Math.floor(Date.now() / 1000);
    const service = await startTestService({
      keys: [
        { advertiser: "Acme Outdoor", ips: ["127.0.0.1"] },
        { advertiser: "Acme Outdoor", ips: ["127.0.0.2"] },
      ],
      serve: { authFailureLimit: 3, nowSeconds: () => now },
    });
    const [local, other] = service.keys as [string, string];
    for (const key of [WRONG, undefined, WRONG]) {
      expect((await httpGet(service.url + QUERY, { key })).status).toBe(401);
    }
    const throttled = await httpGet(service.url + QUERY, { key: local });
    expect(throttled.status).toBe(429);
    expect(throttled.headers["retry-after"]).toBe("60");
    expect(throttled.headers["content-type"]).toMatch(/^application\/json/);
    expect(throttled.json).toMatchObject({ error: { status: 429, code: "rate_limited" } });
    expect(throttled.text).not.toContain(local);

    expect((await httpGet(service.url + QUERY, { key: other, localAddress: "127.0.0.2" })).status).toBe(200);

    now += 30;
    expect((await httpGet(service.url + QUERY, { key: local })).headers["retry-after"]).toBe("30");
    now += 31;
    expect((await httpGet(service.url + QUERY, { key: local })).status).toBe(200);
  });

  it("counts failures per minute: a few a minute never trip it", async () => {
    let now = Math.floor(Date.now() / 1000);
    const service = await startTestService({
      keys: [{ advertiser: "Acme Outdoor", ips: ["127.0.0.1"] }],
      serve: { authFailureLimit: 3, nowSeconds: () => now },
    });
    for (let minute = 0; minute < 4; minute += 1) {
      for (let i = 0; i < 2; i += 1) expect((await httpGet(service.url + QUERY, { key: WRONG })).status).toBe(401);
      now += 61;
    }
    expect((await httpGet(service.url + QUERY, { key: service.keys[0] })).status).toBe(200);
  });

  it("is off with 0", async () => {
    const service = await startTestService({ keys: [], serve: { authFailureLimit: 0 } });
    for (let i = 0; i < 30; i += 1) expect((await httpGet(service.url + QUERY, { key: WRONG })).status).toBe(401);
  });
});
