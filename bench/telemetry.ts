/**
 * Issue 39: a report export with OpenTelemetry on (OTEL_EXPORTER_OTLP_ENDPOINT at a loopback receiver in
 * this process, http/protobuf, traces and metrics) against the same export with it off, wall time of the
 * whole process (start-up and the export at its end included), alternating on and off, median of each.
 * With --metrics-file as a third side. The export: 200 ads x 180 days of `ad,date` rows (36,000 rows, two
 * 90-day windows, 36 pages of 1,000) from a local `serve`, as CSV to /dev/null. Target: at most 1.05x.
 */
import { spawn } from "node:child_process";
import { mkdirSync, openSync, renameSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { keptDatabase, WORK } from "./data";
import { BIN, cli, ensureBuilt, figure, median, timeAsync } from "./lib";
import { startServe } from "./serve-process";

const DB = join(WORK, "telemetry-200-ads-180-days.db");
const DATA = ["--advertisers", "1", "--campaigns", "10", "--ads", "20", "--keywords", "0", "--days", "180"];
const REPORT = ["--from", "2026-05-05", "--to", "2026-10-31", "--dims", "ad,date", "--page-size", "1000"];
const DEV_NULL = openSync("/dev/null", "w");
const RUNS = 7;

function ensureDb(): void {
  if (keptDatabase(DB)) return;
  mkdirSync(WORK, { recursive: true });
  rmSync(`${DB}.tmp`, { force: true });
  cli(["serve", "demo", "--db", `${DB}.tmp`, ...DATA, "--activity", "1", "--end", "2026-11-01"]);
  renameSync(`${DB}.tmp`, DB);
}

/** An OTLP/HTTP receiver that takes every body and answers 200, as a collector nearby would. */
async function startReceiver(): Promise<{ url: string; bodies: () => number; close: () => void }> {
  let bodies = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      bodies += 1;
      res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bodies: () => bodies,
    close: () => server.close(),
  };
}

function report(env: Record<string, string>, extra: readonly string[] = []): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "report", ...REPORT, "--format", "csv", "-q", ...extra], {
      stdio: ["ignore", DEV_NULL, "pipe"],
      env: { ...process.env, ...env },
    });
    let stderr = "";
    child.stderr?.on("data", (c: Buffer) => {
      stderr += c.toString();
    });
    child.on("close", (code) =>
      code === 0 && stderr === "" ? resolve() : reject(new Error(`report exited ${code}: ${stderr}`)),
    );
  });
}

export async function benchTelemetry(): Promise<void> {
  ensureBuilt();
  ensureDb();
  const key = cli(["serve", "key", "issue", "--db", DB, "--advertiser", "Acme Outdoor", "--ip", "127.0.0.1"]).trim();
  const server = await startServe(DB, ["--cache-mb", "256"]);
  const receiver = await startReceiver();
  const metricsDir = join(WORK, "telemetry-metrics");
  mkdirSync(metricsDir, { recursive: true });
  try {
    const off = {
      ADREPORT_API_KEY: key,
      ADREPORT_BASE_URL: server.url,
      ADREPORT_CONFIG_DIR: join(WORK, "telemetry-config"),
    };
    const on = { ...off, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url };
    await report(off); // warm-up: the service computes the report once
    await report(on);
    const offMs: number[] = [];
    const onMs: number[] = [];
    const fileMs: number[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      offMs.push(await timeAsync(() => report(off)));
      onMs.push(await timeAsync(() => report(on)));
      fileMs.push(await timeAsync(() => report(off, ["--metrics-file", join(metricsDir, "adreport.prom")])));
    }
    const ratio = median(onMs) / median(offMs);
    figure("export, OpenTelemetry off (median wall)", `${median(offMs).toFixed(0)} ms`);
    figure("export, OTLP http/protobuf to a loopback collector", `${median(onMs).toFixed(0)} ms`);
    figure("  on / off", `${ratio.toFixed(3)}x (target 1.05x)`, ratio <= 1.05);
    const fileRatio = median(fileMs) / median(offMs);
    figure("  --metrics-file / off", `${fileRatio.toFixed(3)}x (target 1.05x)`, fileRatio <= 1.05);
    figure("  bodies the collector got", `${receiver.bodies()} (2 a run: traces, metrics)`);
  } finally {
    receiver.close();
    await server.stop();
  }
}
