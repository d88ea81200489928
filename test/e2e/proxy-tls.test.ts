/**
 * The corporate network, end to end with the real CLI: an egress proxy (HTTP_PROXY / HTTPS_PROXY, NO_PROXY,
 * the `proxy` setting), a service whose certificate a private CA signed (NODE_EXTRA_CA_CERTS), and an
 * https:// URL given for a plain-HTTP port. Everything on 127.0.0.1; the proxy sends every host name there.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCliBounded } from "../helpers/bounded-run";
import { startHostileService } from "../helpers/hostile";
import { startProxy } from "../helpers/proxy";
import { tempDir } from "../helpers/temp";
import { makeCertificates } from "../helpers/tls";

const KEY = "adr_proxy-test-key-0123456789";
const ROWS = 25;
const certificates = makeCertificates();
const plain = await startHostileService({ rows: ROWS });
const secure = await startHostileService({ rows: ROWS, tls: { key: certificates.key, cert: certificates.cert } });
const portOf = (url: string) => new URL(url).port;

/** No proxy variables of the developer's own: each test sets the ones it means. */
const NO_PROXY_ENV = {
  HTTP_PROXY: "",
  HTTPS_PROXY: "",
  NO_PROXY: "",
  http_proxy: "",
  https_proxy: "",
  no_proxy: "",
  NODE_EXTRA_CA_CERTS: "",
};

function report(baseUrl: string, env: Record<string, string> = {}, extra: string[] = []) {
  return runCliBounded(
    [
      "report",
      "--base-url",
      baseUrl,
      "--dims",
      "campaign",
      "--metrics",
      "views",
      "--format",
      "ndjson",
      "--page-size",
      "10",
      "--retries",
      "1",
      ...extra,
    ],
    { ...NO_PROXY_ENV, ADREPORT_API_KEY: KEY, ADREPORT_CONFIG_DIR: "/nonexistent-adreport", ...env },
    60_000,
  );
}

const lines = (stdout: string) => stdout.split("\n").filter((l) => l !== "");

describe("a service with a certificate of a private CA", () => {
  it("works with NODE_EXTRA_CA_CERTS naming the CA", async () => {
    const run = await report(secure.url, { NODE_EXTRA_CA_CERTS: certificates.caPath });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(lines(run.stdout)).toHaveLength(ROWS);
  });

  it("fails without it: exit 5 at once, a hint naming NODE_EXTRA_CA_CERTS, no OpenSSL text", async () => {
    const run = await report(secure.url);
    expect(run.code).toBe(5);
    expect(run.stderr).toMatch(
      /^adreport: cannot reach 127\.0\.0\.1:\d+: its TLS certificate is not signed by an authority this machine trusts \([A-Z_]+\)\nhint: .*NODE_EXTRA_CA_CERTS/,
    );
    expect(run.stderr).not.toContain("retry");
  });
});

describe("an https:// URL for a plain-HTTP port", () => {
  it("says the service answered in plain HTTP and suggests http://", async () => {
    const run = await report(plain.url.replace("http://", "https://"));
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

  it("tunnels https:// through HTTPS_PROXY with CONNECT: the proxy never sees the key", async () => {
    const proxy = await startProxy();
    const run = await report(`https://reports.example.test:${portOf(secure.url)}`, {
      HTTPS_PROXY: proxy.url,
      NODE_EXTRA_CA_CERTS: certificates.caPath,
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(lines(run.stdout)).toHaveLength(ROWS);
    expect(proxy.log.length).toBeGreaterThanOrEqual(1);
    for (const line of proxy.log) expect(line).toMatch(/^CONNECT reports\.example\.test:\d+ /);
    expect(proxy.log.join("\n")).not.toContain(KEY);
  });

  it("uses a profile's proxy setting; a loopback address (a local serve) goes around any proxy", async () => {
    const proxy = await startProxy();
    const configDir = tempDir();
    writeFileSync(
      join(configDir, "config.json"),
      JSON.stringify({ settings: { profile: "acme" }, profiles: { acme: { "api-key": KEY, proxy: proxy.url } } }),
      { mode: 0o600 },
    );
    const viaSetting = await report(
      `http://reports.example.test:${portOf(plain.url)}`,
      { ADREPORT_CONFIG_DIR: configDir, ADREPORT_API_KEY: "" },
      ["--verbose"],
    );
    expect(viaSetting.code).toBe(0);
    expect(viaSetting.stderr).toContain(`via the proxy ${proxy.url} (from the proxy setting)`);
    expect(proxy.log).toHaveLength(3);

    const loopback = await report(plain.url, { HTTP_PROXY: proxy.url }, ["--verbose"]);
    expect(loopback.code).toBe(0);
    expect(loopback.stderr).not.toContain("via the proxy");
    const excluded = await report(`http://localhost:${portOf(plain.url)}`, {
      HTTP_PROXY: proxy.url,
      NO_PROXY: "localhost",
    });
    expect(excluded.code).toBe(0);
    expect(proxy.log).toHaveLength(3);
  });

  it("names the proxy when it cannot be reached", async () => {
    const proxy = await startProxy();
    await proxy.close();
    const run = await report(`http://reports.example.test:${portOf(plain.url)}`, { HTTP_PROXY: proxy.url });
    expect(run.code).toBe(5);
    expect(run.stderr).toContain(`hint: requests go through the proxy ${proxy.url} (from HTTP_PROXY)`);
  });
});
