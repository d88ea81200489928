/**
 * `adreport report` (in this process) on the networks it meets: egress proxies (HTTP_PROXY / HTTPS_PROXY,
 * NO_PROXY, the `proxy` setting, URLs written the way curl accepts them, a proxy that cuts off every
 * tunnel), services and proxies that echo the key back, and TLS that cannot work. Everything on 127.0.0.1;
 * the test proxy sends every host name there. A certificate of a private CA trusted through
 * NODE_EXTRA_CA_CERTS needs a process (Node reads it at start-up): test/e2e/proxy-tls.test.ts.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it, vi } from "vitest";
import { type BoundedRun, runInProcessBounded } from "../../helpers/bounded-run";
import { configDirWith } from "../../helpers/config";
import { startFakeService } from "../../helpers/fake-service";
import { startLocalServer } from "../../helpers/local-server";
import { startProxy } from "../../helpers/proxy";
import { makeCertificates } from "../../helpers/tls";

const KEY = "adr_world-test-key-0123456789abcdef";
const RETRIES = 2;
const ROWS = 25;
/** A run that has not ended by then is looping: the test stops waiting for it and fails. */
const GIVE_UP_AFTER_MS = 30_000;
vi.setConfig({ testTimeout: GIVE_UP_AFTER_MS + 30_000 });

const certificates = makeCertificates();
const plain = await startFakeService({ rows: ROWS });
const secure = await startFakeService({ rows: ROWS, tls: { key: certificates.key, cert: certificates.cert } });
const portOf = (url: string) => new URL(url).port;
const lines = (stdout: string) => stdout.split("\n").filter((l) => l !== "");

/** A report of one week by campaign, as NDJSON; the harness's environment holds no proxy variables. */
function report(baseUrl: string, env: Record<string, string> = {}, extra: string[] = []): Promise<BoundedRun> {
  return runInProcessBounded(
    [
      "report",
      "--base-url",
      baseUrl,
      "--from",
      "2026-11-01",
      "--to",
      "2026-11-07",
      "--dims",
      "campaign",
      "--metrics",
      "views",
      "--format",
      "ndjson",
      "--page-size",
      "10",
      "--retries",
      String(RETRIES),
      "--timeout",
      "2s",
      ...extra,
    ],
    { env: { ADREPORT_API_KEY: KEY, ADREPORT_CONFIG_DIR: "/nonexistent-adreport", ...env } },
    GIVE_UP_AFTER_MS,
  );
}

describe("a proxy that closes every CONNECT before answering it", () => {
  it("ends with exit 5 after retries + 1 tunnels, naming the proxy", async () => {
    const proxy = await startLocalServer(
      (_req, res) => res.destroy(),
      (socket) => socket.destroy(),
    );
    const run = await report("https://reports.example.test", { HTTPS_PROXY: proxy.url });
    expect(run.killed).toBe(false);
    expect(run.code).toBe(5);
    expect(run.stderr).toContain("the proxy closed the connection before it opened a tunnel");
    expect(run.stderr).toContain(`(page 1: gave up after ${RETRIES + 1} attempts)`);
    expect(run.stderr).toContain(`hint: requests go through the proxy ${proxy.url} (from HTTPS_PROXY)`);
    expect(proxy.count()).toBe(RETRIES + 1);
  });
});

describe("a service that echoes the key back", () => {
  const leaks = (run: BoundedRun) => `${run.stdout}${run.stderr}`.includes(KEY);

  it("in a redirect's Location: exit 2, the address shown without the key", async () => {
    const service = await startLocalServer((_req, res) => {
      res.writeHead(302, { location: `https://elsewhere.example.test/v1/report?api_key=${KEY}` }).end();
    });
    const run = await report(service.url, {}, ["--verbose"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("the service redirects to https://elsewhere.example.test/v1/report?api_key=*** (302)");
    expect(leaks(run)).toBe(false);
  });

  it("across the place an error body is cut for the message", async () => {
    const service = await startLocalServer((req, res) => {
      res.writeHead(503, { "content-type": "text/plain" }).end(`${"x".repeat(100)}${req.headers.authorization}`);
    });
    const run = await report(service.url, {}, ["--verbose"]);
    expect(run.code).toBe(5);
    expect(run.stderr).toContain("Bearer ***");
    expect(leaks(run)).toBe(false);
    expect(run.stderr).not.toContain(KEY.slice(0, 8));
  });

  it("across the place a page that is not JSON is cut for the message", async () => {
    const service = await startLocalServer((req, res) => {
      res.writeHead(200, { "content-type": "text/html" }).end(`${"y".repeat(60)}${req.headers.authorization}`);
    });
    const run = await report(service.url, {}, ["--verbose"]);
    expect(run.code).toBe(5);
    expect(run.stderr).toContain("Bearer ***");
    expect(leaks(run)).toBe(false);
    expect(run.stderr).not.toContain(KEY.slice(0, 8));
  });
});

describe("a proxy URL written the way curl accepts it", () => {
  const onePage = (_req: IncomingMessage, res: ServerResponse) => {
    const meta = { granularity: "total", dimensions: ["campaign"], metrics: ["views"], total: 1, page: 1 };
    const data = [{ dimensions: { campaign_id: 1, name: "Spring" }, metrics: { views: 5 } }];
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ meta: { ...meta, limit: 100, has_more: false }, data }));
  };

  it("without a scheme, with a password: used as http://, the password never shown", async () => {
    const proxy = await startLocalServer(onePage);
    const bare = proxy.url.replace("http://", "");
    const run = await report("http://reports.example.test", { HTTP_PROXY: `alice:PROXYPASS@${bare}` }, ["--verbose"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('{"dimensions":{"campaign_id":1,"name":"Spring"},"metrics":{"views":5}}\n');
    expect(run.stderr).toContain(`adreport: via the proxy http://alice:***@${bare} (from HTTP_PROXY)`);
    expect(run.stderr).not.toContain("PROXYPASS");
    expect(proxy.count()).toBe(1);
  });

  it("with a user name alone (a token): masked as a password is", async () => {
    const proxy = await startLocalServer(onePage);
    const bare = proxy.url.replace("http://", "");
    const run = await report("http://reports.example.test", { HTTP_PROXY: `http://TOKEN123@${bare}` }, ["--verbose"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`adreport: via the proxy http://***@${bare} (from HTTP_PROXY)`);
    expect(run.stderr).not.toContain("TOKEN123");
  });

  it("of another scheme: exit 2 naming the variable, never its password", async () => {
    const run = await report("https://reports.example.test", { HTTPS_PROXY: "socks5://alice:PROXYPASS@127.0.0.1:9" });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "adreport: HTTPS_PROXY is not an http:// or https:// proxy URL (socks5:// is not supported)\n" +
        "hint: write it as http://host:port, with user:password@ before the host if the proxy asks for them\n",
    );
  });
});

describe("a service with a certificate of a private CA", () => {
  it("fails when this machine does not trust the CA: exit 5 at once, a hint naming NODE_EXTRA_CA_CERTS, no OpenSSL text", async () => {
    const run = await report(secure.url, {}, ["--retries", "1"]);
    expect(run.code).toBe(5);
    expect(run.stderr).toMatch(
      /^adreport: cannot reach 127\.0\.0\.1:\d+: its TLS certificate is not signed by an authority this machine trusts \([A-Z_]+\)\nhint: .*NODE_EXTRA_CA_CERTS/,
    );
    expect(run.stderr).not.toContain("retry");
  });
});

describe("an https:// URL for a plain-HTTP port", () => {
  it("says the service answered in plain HTTP and suggests http://", async () => {
    const run = await report(plain.url.replace("http://", "https://"), {}, ["--retries", "1"]);
    expect(run.code).toBe(5);
    expect(run.stderr).toBe(
      `adreport: cannot reach 127.0.0.1:${portOf(plain.url)}: the service answered in plain HTTP, not TLS\nhint: try http://127.0.0.1:${portOf(plain.url)} as the base URL\n`,
    );
  });
});

describe("behind an egress proxy", () => {
  it("sends http:// requests through HTTP_PROXY, and --verbose says so; the key only in their header", async () => {
    const proxy = await startProxy();
    const run = await report(`http://reports.example.test:${portOf(plain.url)}`, { HTTP_PROXY: proxy.url }, [
      "--verbose",
      "--retries",
      "1",
    ]);
    expect(run.code).toBe(0);
    expect(lines(run.stdout)).toHaveLength(ROWS);
    expect(run.stderr).toContain(`adreport: via the proxy ${proxy.url} (from HTTP_PROXY)`);
    expect(proxy.log).toHaveLength(3);
    for (const line of proxy.log) {
      expect(line).toMatch(/^GET http:\/\/reports\.example\.test:\d+\/v1\/report\?/);
      const [, url, headers] = /^GET (\S+) (.*)$/.exec(line) ?? [];
      expect(url).not.toContain(KEY);
      expect(JSON.parse(headers ?? "{}").authorization).toBe(`Bearer ${KEY}`);
      expect(line.split(KEY)).toHaveLength(2); // in the Authorization header, nowhere else
    }
  });

  it("uses a profile's proxy setting; a loopback address (a local serve) goes around any proxy", async () => {
    const proxy = await startProxy();
    const configDir = configDirWith({ profile: "acme" }, { acme: { "api-key": KEY, proxy: proxy.url } });
    const viaSetting = await report(
      `http://reports.example.test:${portOf(plain.url)}`,
      { ADREPORT_CONFIG_DIR: configDir, ADREPORT_API_KEY: "" },
      ["--verbose", "--retries", "1"],
    );
    expect(viaSetting.code).toBe(0);
    expect(viaSetting.stderr).toContain(`via the proxy ${proxy.url} (from the proxy setting)`);
    expect(proxy.log).toHaveLength(3);

    const loopback = await report(plain.url, { HTTP_PROXY: proxy.url }, ["--verbose", "--retries", "1"]);
    expect(loopback.code).toBe(0);
    expect(loopback.stderr).not.toContain("via the proxy");
    const excluded = await report(
      `http://localhost:${portOf(plain.url)}`,
      { HTTP_PROXY: proxy.url, NO_PROXY: "localhost" },
      ["--retries", "1"],
    );
    expect(excluded.code).toBe(0);
    expect(proxy.log).toHaveLength(3);
  });

  it("names the proxy when it cannot be reached", async () => {
    const proxy = await startProxy();
    await proxy.close();
    const run = await report(`http://reports.example.test:${portOf(plain.url)}`, { HTTP_PROXY: proxy.url }, [
      "--retries",
      "1",
    ]);
    expect(run.code).toBe(5);
    expect(run.stderr).toContain(`hint: requests go through the proxy ${proxy.url} (from HTTP_PROXY)`);
  });
});
