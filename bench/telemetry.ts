/**
 * Issue 39: a report export with OpenTelemetry on (OTEL_EXPORTER_OTLP_ENDPOINT at a loopback receiver in
 * this process, http/protobuf, traces and metrics) against the same export with it off, wall time of the
 * whole process and its CPU time (GNU time; start-up and the export at its end included), each side first, second and third in turn, 9 runs each, median.
 * With --metrics-file as a third side. The export: 200 ads x 180 days of `ad,date` rows (36,000 rows, two
 * 90-day windows, 36 pages of 1,000) from a local `serve`, as CSV to /dev/null. Target: at most 1.05x.
 */
import { spawn } from "node:child_process";
import { mkdirSync, openSync, renameSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { keptDatabase, WORK } from "./data";
import { BIN, cli, ensureBuilt, figure, median } from "./lib";
import { startServe } from "./serve-process";

const DB = join(WORK, "telemetry-200-ads-180-days.db");
const DATA = ["--advertisers", "1", "--campaigns", "10", "--ads", "20", "--keywords", "0", "--days", "180"];
const REPORT = ["--from", "2026-05-05", "--to", "2026-10-31", "--dims", "ad,date", "--page-size", "1000"];
const DEV_NULL = openSync("/dev/null", "w");
const RUNS = 9;

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

/** Runs one export under GNU time: its wall and CPU (user + system) milliseconds. */
function report(env: Record<string, string>, extra: readonly string[] = []): Promise<{ wall: number; cpu: number }> {
  return new Promise((resolve, reject) => {
    const args = ["-f", "__time %e %U %S", process.execPath, BIN, "report", ...REPORT, "--format", "csv", "-q"];
    const child = spawn("/usr/bin/time", [...args, ...extra], {
      stdio: ["ignore", DEV_NULL, "pipe"],
      env: { ...process.env, ...env },
    });
    let stderr = "";
    child.stderr?.on("data", (c: Buffer) => {
      stderr += c.toString();
    });
    child.on("close", (code) => {
      const match = /^__time ([\d.]+) ([\d.]+) ([\d.]+)\n$/.exec(stderr);
      if (code !== 0 || !match) reject(new Error(`report exited ${code}: ${stderr}`));
      else resolve({ wall: Number(match[1]) * 1000, cpu: (Number(match[2]) + Number(match[3])) * 1000 });
    });
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
    type Times = { wall: number[]; cpu: number[] };
    const off_: Times = { wall: [], cpu: [] };
    const on_: Times = { wall: [], cpu: [] };
    const file_: Times = { wall: [], cpu: [] };
    const sides: [Times, () => Promise<{ wall: number; cpu: number }>][] = [
      [off_, () => report(off)],
      [on_, () => report(on)],
      [file_, () => report(off, ["--metrics-file", join(metricsDir, "adreport.prom")])],
    ];
    // Each side first, second and third in turn: a machine busy with something else for a while costs each alike.
    for (let i = 0; i < RUNS; i += 1) {
      for (let j = 0; j < sides.length; j += 1) {
        const [times, run] = sides[(i + j) % sides.length] as (typeof sides)[number];
        const { wall, cpu } = await run();
        times.wall.push(wall);
        times.cpu.push(cpu);
      }
    }
    const show = (name: string, side: Times) =>
      figure(name, `${median(side.wall).toFixed(0)} ms wall, ${median(side.cpu).toFixed(0)} ms CPU`);
    show("export, telemetry off (medians)", off_);
    show("export, OTLP http/protobuf to a loopback collector", on_);
    show("export, --metrics-file", file_);
    for (const [name, side] of [
      ["OTLP on / off", on_],
      ["--metrics-file / off", file_],
    ] as const) {
      const wall = median(side.wall) / median(off_.wall);
      const cpu = median(side.cpu) / median(off_.cpu);
      figure(`  ${name}, wall`, `${wall.toFixed(3)}x (target 1.05x)`, wall <= 1.05);
      figure(`  ${name}, CPU`, `${cpu.toFixed(3)}x`);
    }
    figure("  bodies the collector got", `${receiver.bodies()} (2 a run: traces, metrics)`);
  } finally {
    receiver.close();
    await server.stop();
  }
}
