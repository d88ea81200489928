/**
 * Keys, the IP whitelist and the order of checks (contract.md A2), over real sockets: a second loopback
 * source address (127.0.0.2), IPv6 (::1), IPv4-mapped addresses, and forged X-Forwarded-For headers.
 */
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { testBackends } from "../helpers/backends";
import { httpGet } from "../helpers/http";
import { startTestService, type TestService } from "../helpers/serve";

const HOUR_AGO = Math.floor(Date.now() / 1000) - 3600;

describe.each(await testBackends())("on $name", (backend) => {
  beforeEach((context) => backend.skipUnavailable(context));
  let service: TestService;
  let v4: string;
  let v6: string;
  beforeAll(async () => {
    if (backend.unavailable) return;
    // Listening on :: takes IPv4 callers as ::ffff:127.0.0.x, so the mapped form is exercised too.
    service = await startTestService({
      backend,
      host: "::",
      keys: [
        { advertiser: "Acme Outdoor", ips: ["127.0.0.1"] }, // 0
        { advertiser: "Acme Outdoor", ips: ["::1"] }, // 1
        { advertiser: "Acme Outdoor", ips: ["127.0.0.1"], expiresAt: HOUR_AGO }, // 2
        { advertiser: "Acme Outdoor", ips: ["127.0.0.1"], revoked: true }, // 3
        { advertiser: "Acme Outdoor", ips: ["127.0.0.0/30"] }, // 4
        { advertiser: "Globex, Inc.", ips: ["127.0.0.1", "::1"] }, // 5
        { advertiser: "Acme Outdoor", ips: [] }, // 6
      ],
    });
    const port = new URL(service.url).port;
    v4 = `http://127.0.0.1:${port}`;
    v6 = `http://[::1]:${port}`;
  });
  const QUERY = "/v1/report?from=2026-10-01&to=2026-10-31&metrics=views";
  const key = (i: number) => service.keys[i] as string;

  async function errorOf(url: string, options: Parameters<typeof httpGet>[1]) {
    const result = await httpGet(url, options);
    expect(result.headers["content-type"]).toMatch(/^application\/json/);
    return { status: result.status, code: (result.json as { error: { code: string } }).error.code, result };
  }

  describe("the key (401)", () => {
    it("refuses a request without a key, with WWW-Authenticate: Bearer", async () => {
      const { status, code, result } = await errorOf(v4 + QUERY, {});
      expect([status, code]).toEqual([401, "missing_key"]);
      expect(result.headers["www-authenticate"]).toBe("Bearer");
    });

    it.each([
      ["Basic dXNlcjpwYXNz", "invalid_key"],
      ["Bearer", "invalid_key"],
      ["Bearer adr_short", "invalid_key"],
      [`Bearer adr_${"A".repeat(43)}`, "invalid_key"],
      ["Token abc", "invalid_key"],
    ])("refuses Authorization %j", async (authorization, expected) => {
      const { status, code, result } = await errorOf(v4 + QUERY, { headers: { authorization } });
      expect([status, code]).toEqual([401, expected]);
      expect(result.text).not.toContain("adr_");
    });

    it("accepts the scheme word in any case", async () => {
      for (const scheme of ["bearer", "BEARER", "BeArEr"]) {
        const result = await httpGet(v4 + QUERY, { headers: { authorization: `${scheme} ${key(0)}` } });
        expect(result.status).toBe(200);
      }
    });

    it("refuses an expired key with key_expired and a revoked one with invalid_key", async () => {
      expect((await errorOf(v4 + QUERY, { key: key(2) })).code).toBe("key_expired");
      expect((await errorOf(v4 + QUERY, { key: key(3) })).code).toBe("invalid_key");
    });

    it("never echoes the key in an error", async () => {
      for (const k of [key(2), key(3), `${key(0).slice(0, -1)}x`]) {
        const result = await httpGet(v4 + QUERY, { key: k });
        expect(result.text).not.toContain(k);
        expect(result.text).not.toContain(k.slice(4, 20));
      }
    });
  });

  describe("the IP whitelist (403)", () => {
    it("lets the whitelisted address in, over IPv4 and IPv6", async () => {
      expect((await httpGet(v4 + QUERY, { key: key(0) })).status).toBe(200);
      expect((await httpGet(v6 + QUERY, { key: key(1) })).status).toBe(200);
    });

    it("refuses another loopback source address with ip_not_allowed", async () => {
      const { status, code, result } = await errorOf(v4 + QUERY, { key: key(0), localAddress: "127.0.0.2" });
      expect([status, code]).toEqual([403, "ip_not_allowed"]);
      expect((result.json as { error: { message: string } }).error.message).toContain("127.0.0.2");
    });

    it("keeps IPv4 and IPv6 apart", async () => {
      expect((await errorOf(v6 + QUERY, { key: key(0) })).code).toBe("ip_not_allowed");
      expect((await errorOf(v4 + QUERY, { key: key(1) })).code).toBe("ip_not_allowed");
    });

    it("matches CIDR ranges", async () => {
      expect((await httpGet(v4 + QUERY, { key: key(4), localAddress: "127.0.0.2" })).status).toBe(200);
      expect((await httpGet(v4 + QUERY, { key: key(4), localAddress: "127.0.0.3" })).status).toBe(200);
      expect((await errorOf(v4 + QUERY, { key: key(4), localAddress: "127.0.0.4" })).code).toBe("ip_not_allowed");
    });

    it("lets nobody use a key with an empty whitelist", async () => {
      expect((await errorOf(v4 + QUERY, { key: key(6) })).code).toBe("ip_not_allowed");
    });

    it("ignores X-Forwarded-For when no proxy is trusted", async () => {
      const spoof = { key: key(0), localAddress: "127.0.0.2", headers: { "x-forwarded-for": "127.0.0.1" } };
      expect((await errorOf(v4 + QUERY, spoof)).code).toBe("ip_not_allowed");
      const forged = {
        key: key(1),
        headers: { "x-forwarded-for": "::1", "x-real-ip": "::1", forwarded: 'for="[::1]"' },
      };
      expect((await errorOf(v4 + QUERY, forged)).code).toBe("ip_not_allowed");
    });
  });

  describe("X-Forwarded-For from a trusted proxy", () => {
    let proxied: ReturnType<typeof startTestService>;
    beforeAll(() => {
      if (backend.unavailable) return;
      proxied = startTestService({
        backend,
        keys: [{ advertiser: "Acme Outdoor", ips: ["203.0.113.7"] }],
        serve: { trustProxy: ["127.0.0.1"] },
      });
      return proxied;
    });

    it("takes the caller from the header when the peer is a trusted proxy", async () => {
      const { url, keys } = await proxied;
      const k = keys[0] as string;
      expect((await httpGet(url + QUERY, { key: k, headers: { "x-forwarded-for": "203.0.113.7" } })).status).toBe(200);
      expect((await httpGet(url + QUERY, { key: k, headers: { "x-forwarded-for": "198.51.100.1" } })).status).toBe(403);
      expect((await httpGet(url + QUERY, { key: k })).status).toBe(403);
    });

    it("does not trust the header from any other peer", async () => {
      const { url, keys } = await proxied;
      const result = await httpGet(url + QUERY, {
        key: keys[0] as string,
        localAddress: "127.0.0.2",
        headers: { "x-forwarded-for": "203.0.113.7" },
      });
      expect(result.status).toBe(403);
    });
  });

  describe("the order of checks", () => {
    const badQuery = "/v1/report?from=2026-10-01&to=2027-10-01&metrics=views&campaign_id=3";
    it("401 before 403 before 400 before ownership", async () => {
      expect((await errorOf(v4 + badQuery, { key: "nope", localAddress: "127.0.0.2" })).status).toBe(401);
      expect((await errorOf(v4 + badQuery, { key: key(0), localAddress: "127.0.0.2" })).status).toBe(403);
      const params = await errorOf(v4 + badQuery, { key: key(0) });
      expect([params.status, params.code]).toEqual([400, "range_too_long"]);
      const owner = await errorOf(`${v4}/v1/report?from=2026-10-01&to=2026-10-31&metrics=views&campaign_id=3`, {
        key: key(0),
      });
      expect([owner.status, owner.code]).toEqual([403, "forbidden"]);
    });
  });

  describe("ownership of campaign_id and ad_id (403)", () => {
    const q = (extra: string) => `${v4}/v1/report?from=2026-10-01&to=2026-10-31&metrics=views&${extra}`;
    const acmeLines = () => service.lines.filter((l) => l.advertiser === "Acme Outdoor");
    const globexLines = () => service.lines.filter((l) => l.advertiser === "Globex, Inc.");

    it("refuses another advertiser's campaign and ad, and unknown ids, alike", async () => {
      const other = globexLines()[0];
      if (!other) throw new Error("no data");
      const answers = await Promise.all(
        [`campaign_id=${other.campaign_id}`, `ad_id=${other.ad_id}`, "campaign_id=999999", "ad_id=999999"].map((p) =>
          errorOf(q(p), { key: key(0) }),
        ),
      );
      for (const a of answers) expect([a.status, a.code]).toEqual([403, "forbidden"]);
      const messages = answers.map((a) =>
        (a.result.json as { error: { message: string } }).error.message.replace(/\d+/g, "N"),
      );
      expect(messages[0]).toBe(messages[2]);
      expect(messages[1]).toBe(messages[3]);
    });

    it("gives no rows for an ad outside the named campaign, and a zero total", async () => {
      const ad = acmeLines().find((l) => l.campaign_id === 1);
      if (!ad) throw new Error("no data");
      const rows = await httpGet(q(`campaign_id=2&ad_id=${ad.ad_id}&dimensions=ad`), { key: key(0) });
      expect((rows.json as { data: unknown[] }).data).toEqual([]);
      const total = await httpGet(q(`campaign_id=2&ad_id=${ad.ad_id}`), { key: key(0) });
      expect((total.json as { data: unknown[] }).data).toEqual([{ dimensions: {}, metrics: { views: 0 } }]);
    });
  });
});
