/**
 * A request's controller following the caller's signal (api/follow-signal.ts), and the client's requests
 * ended by it: headers that never come, and a body that stops halfway, against a real server on 127.0.0.1.
 */
import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { ReportApi } from "../../../src/api/client";
import { followSignal } from "../../../src/api/follow-signal";
import { abortableSleep } from "../../../src/api/retry";
import { startLocalServer } from "../../helpers/local-server";
import { KEY } from "../../helpers/mock-api";

const PARAMS = { from: "2026-11-01", to: "2026-11-07", metrics: "views", page: "1", limit: "1000" };

describe("followSignal", () => {
  it("aborts the request's controller with the caller's reason", () => {
    const outer = new AbortController();
    const own = new AbortController();
    followSignal(outer.signal, own);
    outer.abort(new Error("interrupted"));
    expect(own.signal.aborted).toBe(true);
    expect((own.signal.reason as Error).message).toBe("interrupted");
  });

  it("leaves a request that stopped following alone", () => {
    const outer = new AbortController();
    const own = new AbortController();
    followSignal(outer.signal, own)();
    outer.abort();
    expect(own.signal.aborted).toBe(false);
  });

  it("aborts at once when the caller's signal already has", () => {
    const own = new AbortController();
    followSignal(AbortSignal.abort("gone"), own);
    expect(own.signal.reason).toBe("gone");
  });

  it("adds one listener to the caller's signal however many requests follow it (no listener-limit warning)", () => {
    const outer = new AbortController();
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      const owns = Array.from({ length: 40 }, () => new AbortController());
      const stops = owns.map((own) => followSignal(outer.signal, own));
      for (const stop of stops.slice(0, 20)) stop();
      outer.abort();
      expect(owns.filter((own) => own.signal.aborted)).toHaveLength(20);
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning")).toEqual([]);
  });
});

describe("retry waits following the caller's signal", () => {
  it("32 at once (every page of --concurrency 32 waiting after a 503) add no listener-limit warning, and end with its reason", async () => {
    const outer = new AbortController();
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      const waits = Array.from({ length: 32 }, () => abortableSleep(60_000, outer.signal));
      outer.abort(new Error("interrupted"));
      const ended = await Promise.allSettled(waits);
      expect(ended.map((e) => (e.status === "rejected" ? (e.reason as Error).message : e.status))).toEqual(
        Array(32).fill("interrupted"),
      );
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning")).toEqual([]);
  });
});

describe("a request ended by the caller's signal", () => {
  function api(baseUrl: string) {
    return new ReportApi({ baseUrl, apiKey: KEY, userAgent: "adreport/test", timeoutMs: 10_000, retries: 0 });
  }

  it("while its headers have not come: rejects with the caller's reason, at once", async () => {
    const held: ServerResponse[] = [];
    const server = await startLocalServer((_req, res) => held.push(res));
    const client = api(server.url);
    const caller = new AbortController();
    const reading = client.receiveReportPage(PARAMS, caller.signal);
    await expect.poll(() => held.length).toBe(1);
    caller.abort(new Error("interrupted"));
    await expect(reading).rejects.toThrow("interrupted");
    await client.close();
  });

  it("while its body is coming: rejects with the caller's reason, at once", async () => {
    const held: ServerResponse[] = [];
    const server = await startLocalServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      res.write('{"meta":');
      held.push(res);
    });
    const client = api(server.url);
    const caller = new AbortController();
    const page = await client.openReportPage(PARAMS, caller.signal);
    const reading = page.read();
    caller.abort(new Error("interrupted"));
    await expect(reading).rejects.toThrow("interrupted");
    await client.close();
  });
});
