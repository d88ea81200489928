/**
 * What only a process shows of the corporate network: a service whose certificate a private CA signed,
 * trusted through NODE_EXTRA_CA_CERTS (Node reads it when the process starts), directly and through a
 * CONNECT tunnel of an egress proxy. Everything on 127.0.0.1; the proxy sends every host name there. The
 * other proxy and TLS cases run in this process: test/commands/report/network.test.ts.
 */
import { describe, expect, it } from "vitest";
import { runCliBounded } from "../helpers/bounded-run";
import { startFakeService } from "../helpers/fake-service";
import { startProxy } from "../helpers/proxy";
import { makeCertificates } from "../helpers/tls";

const KEY = "adr_proxy-test-key-0123456789";
const ROWS = 25;
const certificates = makeCertificates();
const secure = await startFakeService({ rows: ROWS, tls: { key: certificates.key, cert: certificates.cert } });
const portOf = (url: string) => new URL(url).port;

/** No proxy variables of the developer's own: each test sets the ones it means. */
const NO_PROXY_ENV = {
  HTTP_PROXY: "",
  HTTPS_PROXY: "",
  NO_PROXY: "",
  http_proxy: "",
  https_proxy: "",
  no_proxy: "",
};

function report(baseUrl: string, env: Record<string, string>) {
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
    ],
    {
      ...NO_PROXY_ENV,
      ADREPORT_API_KEY: KEY,
      ADREPORT_CONFIG_DIR: "/nonexistent-adreport",
      NODE_EXTRA_CA_CERTS: certificates.caPath,
      ...env,
    },
    60_000,
  );
}

const lines = (stdout: string) => stdout.split("\n").filter((l) => l !== "");

describe("a service with a certificate of a private CA named by NODE_EXTRA_CA_CERTS", { tags: ["binary"] }, () => {
  it("works directly", async () => {
    const run = await report(secure.url, {});
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(lines(run.stdout)).toHaveLength(ROWS);
  });

  it("works tunnelled through HTTPS_PROXY with CONNECT: the proxy never sees the key", async () => {
    const proxy = await startProxy();
    const run = await report(`https://reports.example.test:${portOf(secure.url)}`, { HTTPS_PROXY: proxy.url });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(lines(run.stdout)).toHaveLength(ROWS);
    expect(proxy.log.length).toBeGreaterThanOrEqual(1);
    for (const line of proxy.log) expect(line).toMatch(/^CONNECT reports\.example\.test:\d+ /);
    expect(proxy.log.join("\n")).not.toContain(KEY);
  });
});
