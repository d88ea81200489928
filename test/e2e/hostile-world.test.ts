/**
 * `adreport report` (the real CLI) against what the world does that the other hostile tests do not: a proxy
 * that cuts off every tunnel, services and proxies that echo the key back, proxy settings written the way
 * curl accepts them. Everything on 127.0.0.1; a proxy here answers by itself and never connects onwards.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterAll, describe, expect, it, vi } from "vitest";
import { type BoundedRun, runCliBounded } from "../helpers/bounded-run";

const KEY = "adr_world-test-key-0123456789abcdef";
const RETRIES = 2;
/** A run that has not ended by then is looping: it is killed and the test fails. */
const KILL_AFTER_MS = 30_000;
vi.setConfig({ testTimeout: KILL_AFTER_MS + 30_000 });

/** No proxy variables of the developer's own: each test sets the ones it means. */
const NO_PROXY_ENV = { HTTP_PROXY: "", HTTPS_PROXY: "", NO_PROXY: "", http_proxy: "", https_proxy: "", no_proxy: "" };

function report(baseUrl: string, env: Record<string, string> = {}, extra: string[] = []): Promise<BoundedRun> {
  return runCliBounded(
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
      "--retries",
      String(RETRIES),
      "--timeout",
      "2s",
      ...extra,
    ],
    { ...NO_PROXY_ENV, ADREPORT_API_KEY: KEY, ADREPORT_CONFIG_DIR: "/nonexistent-adreport", ...env },
    KILL_AFTER_MS,
  );
}

interface LocalServer {
  url: string;
  /** Requests (or CONNECTs) received. */
  count(): number;
}

const closers: Array<() => void> = [];
afterAll(() => {
  for (const close of closers) close();
});

async function listen(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
  onConnect?: (socket: Socket) => void,
): Promise<LocalServer> {
  let count = 0;
  const server = createServer((req, res) => {
    count += 1;
    handle(req, res);
  });
  if (onConnect) {
    server.on("connect", (_req, socket: Socket) => {
      count += 1;
      onConnect(socket);
    });
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, count: () => count };
}

describe("a proxy that closes every CONNECT before answering it", () => {
  it("ends with exit 5 after retries + 1 tunnels, naming the proxy", async () => {
    const proxy = await listen(
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
    const service = await listen((_req, res) => {
      res.writeHead(302, { location: `https://elsewhere.example.test/v1/report?api_key=${KEY}` }).end();
    });
    const run = await report(service.url, {}, ["--verbose"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("the service redirects to https://elsewhere.example.test/v1/report?api_key=*** (302)");
    expect(leaks(run)).toBe(false);
  });

  it("across the place an error body is cut for the message", async () => {
    const service = await listen((req, res) => {
      res.writeHead(503, { "content-type": "text/plain" }).end(`${"x".repeat(100)}${req.headers.authorization}`);
    });
    const run = await report(service.url, {}, ["--verbose"]);
    expect(run.code).toBe(5);
    expect(run.stderr).toContain("Bearer ***");
    expect(leaks(run)).toBe(false);
    expect(run.stderr).not.toContain(KEY.slice(0, 8));
  });

  it("across the place a page that is not JSON is cut for the message", async () => {
    const service = await listen((req, res) => {
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
    const proxy = await listen(onePage);
    const bare = proxy.url.replace("http://", "");
    const run = await report("http://reports.example.test", { HTTP_PROXY: `alice:PROXYPASS@${bare}` }, ["--verbose"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('{"dimensions":{"campaign_id":1,"name":"Spring"},"metrics":{"views":5}}\n');
    expect(run.stderr).toContain(`adreport: via the proxy http://alice:***@${bare} (from HTTP_PROXY)`);
    expect(run.stderr).not.toContain("PROXYPASS");
    expect(proxy.count()).toBe(1);
  });

  it("with a user name alone (a token): masked as a password is", async () => {
    const proxy = await listen(onePage);
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
