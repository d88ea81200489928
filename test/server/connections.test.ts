/**
 * Connections that misbehave: headers that never finish (408), more connections than allowed (refused
 * and logged), and shutdown with connections still open (requests in flight finish; after the grace
 * period, everything left is cut and `close()` returns).
 */
import type { Socket } from "node:net";
import type { FastifyReply, FastifyRequest } from "fastify";
import { describe, expect, it } from "vitest";
import { faultHook, parseFaults } from "../../src/server";
import { httpGet } from "../helpers/http";
import { connected, rawRequest } from "../helpers/raw-socket";
import { startTestService } from "../helpers/serve";

const QUERY = "/v1/report?from=2026-10-01&to=2026-10-31&metrics=views";
const HALF_SENT = `GET ${QUERY} HTTP/1.1\r\nHost: localhost\r\n`;

type Service = Awaited<ReturnType<typeof startTestService>>;

/** The server's side of the next `count` connections it accepts, once it has accepted them all. */
function accepted(service: Service, count: number): Promise<Socket[]> {
  const server = service.server.app.server;
  return new Promise((resolve) => {
    const sockets: Socket[] = [];
    const onConnection = (socket: Socket) => {
      sockets.push(socket);
      if (sockets.length < count) return;
      server.off("connection", onConnection);
      resolve(sockets);
    };
    server.on("connection", onConnection);
  });
}

/** Resolves once the server's side of a connection has closed. */
function closed(socket: Socket): Promise<void> {
  return socket.closed ? Promise.resolve() : new Promise((resolve) => socket.once("close", () => resolve()));
}

describe("a request that never finishes its headers", () => {
  it("is answered 408 request_timeout with the JSON error body, and its connection closed", async () => {
    const service = await startTestService({ keys: [], serve: { headerTimeoutMs: 300 } });
    const { data } = await rawRequest(service.url, HALF_SENT).ended;
    expect(data).toMatch(/^HTTP\/1\.1 408 /);
    expect(data).toContain("application/json");
    const body = JSON.parse(data.slice(data.indexOf("\r\n\r\n") + 4)) as { error: { status: number; code: string } };
    expect(body.error).toMatchObject({ status: 408, code: "request_timeout" });
  });
});

describe("more connections than --max-connections", () => {
  it("refuses the extra connection, logs it once, and serves again when one closes", async () => {
    const notices: string[] = [];
    const service = await startTestService({
      keys: [{ advertiser: "Acme Outdoor", ips: ["127.0.0.1"] }],
      serve: { maxConnections: 2, notice: (line) => notices.push(line) },
    });
    const serverSide = accepted(service, 2);
    const held = [rawRequest(service.url, HALF_SENT), rawRequest(service.url, HALF_SENT)];
    await Promise.all(held.map(connected));
    const heldServerSide = await serverSide;
    const extra = await rawRequest(service.url, HALF_SENT).ended;
    expect(extra.data).toBe("");
    expect(notices.join("\n")).toMatch(/connection limit reached: 2 open \(--max-connections\)/);
    for (const h of held) h.socket.destroy();
    await Promise.all(heldServerSide.map(closed));
    expect((await httpGet(service.url + QUERY, { key: service.keys[0] })).status).toBe(200);
  });
});

describe("shutdown", () => {
  it("finishes every request in flight, then closes", async () => {
    const count = 30;
    let arrived = 0;
    let allArrived: () => void = () => undefined;
    const arrivedPromise = new Promise<void>((resolve) => {
      allArrived = resolve;
    });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const service = await startTestService({
      keys: [{ advertiser: "Acme Outdoor", ips: ["127.0.0.1"] }],
      serve: {
        beforeRequest: async () => {
          arrived += 1;
          if (arrived === count) allArrived();
          await gate;
        },
      },
    });
    const requests = Array.from({ length: count }, (_, i) =>
      httpGet(`${service.url}${QUERY}&limit=${i + 1}`, { key: service.keys[0] }),
    );
    await arrivedPromise;
    const closing = service.server.close();
    release();
    const results = await Promise.all(requests);
    for (const result of results) {
      expect(result.status).toBe(200);
      expect((result.json as { data: unknown[] }).data).toHaveLength(1);
    }
    await closing;
  });

  it("cuts idle and half-sent connections after the grace period", async () => {
    const GRACE_MS = 200;
    const service = await startTestService({ keys: [], serve: { shutdownTimeoutMs: GRACE_MS } });
    const serverSide = accepted(service, 2);
    const idle = rawRequest(service.url, "");
    const half = rawRequest(service.url, HALF_SENT);
    await Promise.all([connected(idle), connected(half), serverSide]);
    const started = performance.now();
    let halfEndedAfter: number | undefined;
    void half.ended.then(() => {
      halfEndedAfter = performance.now() - started;
    });
    const closing = service.server.close().then(() => "closed" as const);
    const bound = new Promise<"still open">((resolve) => setTimeout(() => resolve("still open"), 10 * GRACE_MS));
    // close() returns once the grace period has cut what was left, well before the test's own timeout.
    expect(await Promise.race([closing, bound])).toBe("closed");
    const closedAfter = performance.now() - started;
    // The half-sent request was given the grace period to finish, then cut without an answer.
    expect(closedAfter).toBeGreaterThanOrEqual(GRACE_MS - 5);
    expect((await half.ended).data).toBe("");
    expect(halfEndedAfter).toBeGreaterThanOrEqual(GRACE_MS - 5);
    expect((await idle.ended).data).toBe("");
    expect(idle.socket.destroyed && half.socket.destroyed).toBe(true);
  });
});

describe("--faults reset-body and hang", () => {
  it("parses them with the same `when` as the other kinds", () => {
    expect(parseFaults("reset-body:0.25,hang:every3")).toEqual([
      { kind: "reset-body", when: { rate: 0.25 } },
      { kind: "hang", when: { every: 3 } },
    ]);
    expect(() => parseFaults("hang")).toThrow(/say when/);
    expect(() => parseFaults("reset-body:2")).toThrow(/neither a rate/);
  });

  it("reset-body: the headers of a 200 with a Content-Length, less body than that, then a TCP reset", async () => {
    const service = await startTestService({
      keys: [],
      serve: { beforeRequest: faultHook(parseFaults("reset-body:1")) },
    });
    const { data, error } = await rawRequest(service.url, `GET ${QUERY} HTTP/1.1\r\nHost: localhost\r\n\r\n`).ended;
    expect(data).toMatch(/^HTTP\/1\.1 200 /);
    const length = Number(/content-length: (\d+)/i.exec(data)?.[1]);
    const body = data.slice(data.indexOf("\r\n\r\n") + 4);
    expect(body.length).toBeGreaterThan(0);
    expect(body.length).toBeLessThan(length);
    // A reset that overtakes the unread partial body reaches the client as a plain close, which only a
    // very slow reader sees; either way the body ends short of its Content-Length.
    expect([undefined, "ECONNRESET"]).toContain(error);
  });

  it("hang: never answers, and does not keep the server from closing after its grace period", async () => {
    const hang = faultHook(parseFaults("hang:1"));
    let arrived: () => void = () => undefined;
    const arrival = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const service = await startTestService({
      keys: [],
      serve: {
        shutdownTimeoutMs: 200,
        beforeRequest: async (request: FastifyRequest, reply: FastifyReply) => {
          arrived();
          await hang(request, reply);
        },
      },
    });
    const exchange = rawRequest(service.url, `GET ${QUERY} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    await arrival;
    await service.server.close();
    expect((await exchange.ended).data).toBe("");
  });
});
