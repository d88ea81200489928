/**
 * OpenTelemetry, as a collector sees it: the CLI as a process (its exit is what is checked) against `serve`,
 * sending to a loopback OTLP/HTTP receiver (test/helpers/otlp-receiver.ts) that decodes protobuf and JSON.
 * The span tree (run → account → 90-day window → request) and the figures are checked against the same
 * run's --summary json; the key never arrives; a collector that never answers holds the exit no more than
 * the bound; SIGTERM mid-run still sends; OTEL_SDK_DISABLED sends nothing.
 */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { configDirWith } from "../helpers/config";
import { ACME_KEY, startDemoService } from "../helpers/demo-service";
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "../helpers/otlp-receiver";
import { cliCommand, environment, runCli } from "../helpers/spawn-cli";
import { tempDir } from "../helpers/temp";

const demo = await startDemoService({ keys: [ACME_KEY, { advertiser: "Globex, Inc.", ips: ["127.0.0.1"] }] });
// 184 days: three 90-day windows; 40 of them hold data, in pages of 50 rows.
const RANGE = ["--from", "2026-05-01", "--to", "2026-10-31", "--dims", "ad,date", "--page-size", "50"];

function otelEnv(receiver: OtlpReceiver, protocol: string, extra: Record<string, string> = {}) {
  return {
    ...demo.env,
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
    OTEL_SERVICE_NAME: "nightly-export",
    OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=test",
    ...extra,
  };
}

function summaryOf(stderr: string): Record<string, number | string> {
  const line = stderr.split("\n").find((l) => l.startsWith("{")) ?? "{}";
  return JSON.parse(line) as Record<string, number | string>;
}

function byId(spans: readonly ReceivedSpan[]) {
  return new Map(spans.map((span) => [span.spanId, span]));
}

describe.concurrent("OpenTelemetry", () => {
  for (const protocol of ["http/protobuf", "http/json"]) {
    it(`sends one trace per run and the run's figures over ${protocol}, matching --summary json`, async () => {
      const receiver = await startOtlpReceiver();
      const result = await runCli(["report", ...RANGE, "--format", "csv", "--summary", "json"], {
        cwd: demo.dir,
        env: otelEnv(receiver, protocol),
      });
      expect(result.stderr).not.toContain("warning");
      expect(result.code).toBe(0);
      const summary = summaryOf(result.stderr);
      const { spans, points, resources, requests, raw } = receiver.received;
      expect(requests.map((r) => r.path).sort()).toEqual(["/v1/metrics", "/v1/traces"]);
      for (const request of requests) {
        expect(request.contentType).toBe(protocol === "http/json" ? "application/json" : "application/x-protobuf");
      }
      // One trace, one root: the run.
      expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
      const ids = byId(spans);
      const roots = spans.filter((s) => s.parentSpanId === "");
      expect(roots.map((s) => s.name)).toEqual(["adreport report"]);
      const parentOf = (span: ReceivedSpan) => ids.get(span.parentSpanId);
      const accounts = spans.filter((s) => parentOf(s) === roots[0]);
      expect(accounts.map((s) => s.name)).toEqual(["account"]);
      const windows = spans.filter((s) => parentOf(s) === accounts[0]);
      expect(windows.map((s) => s.attributes["adreport.window.from"]).sort()).toEqual([
        "2026-05-01T00:00:00Z",
        "2026-07-30T00:00:00Z",
        "2026-10-28T00:00:00Z",
      ]);
      const requestSpans = spans.filter((s) => s.kind === 3);
      for (const span of requestSpans) expect(windows).toContain(parentOf(span));
      expect(requestSpans.length).toBe(summary.requests);
      for (const span of requestSpans) {
        expect(span.name).toBe("GET");
        expect(span.attributes["http.request.method"]).toBe("GET");
        expect(span.attributes["http.response.status_code"]).toBe(200);
        expect(span.attributes["server.address"]).toBe("127.0.0.1");
        expect(String(span.attributes["url.full"])).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\/report\?/);
        expect(span.endNs).toBeGreaterThanOrEqual(span.startNs);
      }
      expect(accounts[0]?.attributes["adreport.rows"]).toBe(summary.rows);
      // The resource as the standard variables say.
      expect(resources[0]?.["service.name"]).toBe("nightly-export");
      expect(resources[0]?.["deployment.environment"]).toBe("test");
      const metric = (name: string) => points.filter((p) => p.metric === name).reduce((sum, p) => sum + p.value, 0);
      expect(metric("adreport.rows")).toBe(summary.rows);
      expect(metric("adreport.requests")).toBe(summary.requests);
      expect(metric("adreport.throttled")).toBe(summary.throttled);
      expect(metric("adreport.bytes")).toBeGreaterThan(1000);
      // The key: not in a span, an attribute, a URL, a body or a header that reached the collector.
      const key = demo.key;
      for (const body of raw) expect(body.toString("latin1")).not.toContain(key.slice(4));
      for (const request of requests) expect(JSON.stringify(request.headers)).not.toContain(key.slice(4));
    });
  }

  it("a run over several profiles: an account span each under the run, and each account's figures", async () => {
    const receiver = await startOtlpReceiver();
    const [acme, globex] = demo.service.keys as [string, string];
    const config = configDirWith(
      {},
      {
        acme: { "api-key": acme, "base-url": demo.service.url },
        globex: { "api-key": globex, "base-url": demo.service.url },
      },
    );
    const result = await runCli(["report", "--all-profiles", ...RANGE, "-o", "{profile}.csv", "--summary", "json"], {
      cwd: tempDir(),
      env: { ADREPORT_CONFIG_DIR: config, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
    });
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(result.stderr.trim().split("\n").at(-1) ?? "{}") as {
      accounts: { profile: string; rows: number }[];
    };
    const { spans, points } = receiver.received;
    const root = spans.find((s) => s.parentSpanId === "");
    const accounts = spans.filter((s) => s.parentSpanId === root?.spanId);
    expect(accounts.map((s) => s.name).sort()).toEqual(["account acme", "account globex"]);
    for (const { profile, rows } of summary.accounts) {
      const span = accounts.find((s) => s.attributes["adreport.profile"] === profile);
      expect(span?.attributes["adreport.rows"]).toBe(rows);
      const point = points.find((p) => p.metric === "adreport.rows" && p.attributes["adreport.profile"] === profile);
      expect(point?.value).toBe(rows);
    }
    for (const body of receiver.received.raw) {
      expect(body.toString("latin1")).not.toContain(acme.slice(4));
      expect(body.toString("latin1")).not.toContain(globex.slice(4));
    }
  });

  it("sends nothing with OTEL_SDK_DISABLED=true, and says nothing of it", async () => {
    const receiver = await startOtlpReceiver();
    const result = await runCli(["report", ...RANGE, "--format", "csv"], {
      cwd: demo.dir,
      env: otelEnv(receiver, "http/protobuf", { OTEL_SDK_DISABLED: "true" }),
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(receiver.connections()).toBe(0);
  });

  it("a collector that takes the connection and never answers holds the exit at most about its bound", async () => {
    const receiver = await startOtlpReceiver({ blackHole: true });
    const started = performance.now();
    const plain = await runCli(["report", ...RANGE, "--format", "csv"], { cwd: demo.dir, env: demo.env });
    const plainMs = performance.now() - started;
    const held = performance.now();
    const result = await runCli(["report", ...RANGE, "--format", "csv"], {
      cwd: demo.dir,
      env: otelEnv(receiver, "http/protobuf"),
    });
    const heldMs = performance.now() - held;
    expect(plain.code).toBe(0);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(plain.stdout);
    expect(receiver.connections()).toBeGreaterThan(0);
    expect(result.stderr).toMatch(/^adreport: warning: OpenTelemetry: the run's telemetry was not sent: .*\n$/);
    // The bound is 1.5 s; what more a loaded machine adds to a start is the plain run's to compare with.
    expect(heldMs - plainMs).toBeLessThan(2500);
  });

  it("an https:// endpoint on a plain-HTTP port: one warning line in words, not OpenSSL's text", async () => {
    const receiver = await startOtlpReceiver();
    const result = await runCli(["report", ...RANGE, "--format", "csv"], {
      cwd: demo.dir,
      env: otelEnv(receiver, "http/protobuf", { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url.replace("http:", "https:") }),
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      "adreport: warning: OpenTelemetry: the run's telemetry was not sent: the endpoint answered in plain HTTP, not TLS (an https:// endpoint on a plain-HTTP port?)\n",
    );
  });

  it("an endpoint nobody listens on: the warning names the address refused, the run's exit code", async () => {
    const receiver = await startOtlpReceiver();
    const url = receiver.url;
    await receiver.close();
    const result = await runCli(["report", ...RANGE, "--format", "csv"], {
      cwd: demo.dir,
      env: otelEnv(receiver, "http/protobuf", { OTEL_EXPORTER_OTLP_ENDPOINT: url }),
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      `adreport: warning: OpenTelemetry: the run's telemetry was not sent: connection refused by 127.0.0.1:${new URL(url).port} (is the collector running there?)\n`,
    );
  });

  it("SIGTERM in the middle of the requests still sends what the run did", async () => {
    const receiver = await startOtlpReceiver();
    const slow = await startDemoService({ faults: "delay:300ms" });
    const [command, args] = cliCommand(["report", ...RANGE, "--format", "csv", "--concurrency", "1", "--verbose"]);
    const child = spawn(command, args, {
      cwd: slow.dir,
      env: environment({ ...slow.env, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.stdout.resume();
    // Killed once two pages are in.
    await new Promise<void>((resolve) => {
      child.stderr.on("data", () => {
        if ((stderr.match(/-> 200/g) ?? []).length >= 2) resolve();
      });
    });
    child.kill("SIGTERM");
    const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
    expect(code).toBe(130);
    expect(stderr).toMatch(/^adreport: /);
    const { spans } = receiver.received;
    const root = spans.find((s) => s.parentSpanId === "");
    expect(root?.attributes["process.exit.code"]).toBe(130);
    expect(root?.status.code).toBe(2);
    expect(spans.filter((s) => s.kind === 3).length).toBeGreaterThan(0);
  });
});
