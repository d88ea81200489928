/**
 * `npx tsx bench/pace.ts` (the lead adds it to `npm run bench`): the pacer against a token-bucket service of
 * its own make (test/helpers/bucket-server.ts), 20 requests a second with a burst of 20, a 60-page export at
 * concurrency 8: answers 429 and the time against the ideal (pages / rate), with and without the
 * rate-limit headers, then two processes of one key sharing the ledger file, then a user cap.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ReportApi } from "../src/api/client";
import { Pacer } from "../src/api/pace";
import { openReport } from "../src/api/paginate";
import type { ReportRequest } from "../src/contract";
import { parseRate, type Rate } from "../src/core/rate";
import { FilePaceLedger, paceLedgerPath } from "../src/state/pace-ledger";
import { startBucketServer } from "../test/helpers/bucket-server";

const RATE = 20;
const PAGES = 60;
const PAGE_SIZE = 10;
const KEY = `adr_${"p".repeat(43)}`;
const REQUEST: ReportRequest = {
  from: "2026-11-01",
  to: "2026-11-07",
  metrics: ["views", "clicks"],
  dimensions: ["campaign"],
};

interface Outcome {
  ms: number;
  requests: number;
  throttled: number;
}

async function exportOnce(url: string, pacer: Pacer | undefined): Promise<Outcome> {
  let requests = 0;
  let throttled = 0;
  const api = new ReportApi({
    baseUrl: url,
    apiKey: KEY,
    userAgent: "adreport/bench",
    timeoutMs: 10_000,
    retries: 10,
    pacer,
    onEvent: (event) => {
      if (event.kind !== "response") return;
      requests += 1;
      if (event.status === 429) throttled += 1;
    },
  });
  const started = performance.now();
  const report = await openReport(api, REQUEST, { pageSize: PAGE_SIZE, concurrency: 8 });
  for await (const _ of report.pages);
  const ms = performance.now() - started;
  await api.close();
  return { ms, requests, throttled };
}

function line(label: string, o: Outcome, idealMs: number): string {
  const share = ((o.throttled / o.requests) * 100).toFixed(1);
  return `${label.padEnd(34)} ${String(o.throttled).padStart(3)} of ${o.requests} answered 429 (${share}%), ${(o.ms / 1000).toFixed(2)} s = ${(o.ms / idealMs).toFixed(2)}x ideal`;
}

async function single(headers: "ietf" | "none", paced = true): Promise<void> {
  const server = await startBucketServer({ rate: RATE, burst: RATE, headers, rows: PAGES * PAGE_SIZE });
  try {
    const outcome = await exportOnce(server.url, paced ? new Pacer() : undefined);
    const label = `${paced ? "one export" : "unpaced (before)"}, headers ${headers}`;
    console.log(line(label, outcome, (PAGES / RATE) * 1000));
  } finally {
    await server.close();
  }
}

/** Two processes of one key at once, sharing the ledger file: both loaded, then started at one instant. */
async function twoProcesses(): Promise<void> {
  const server = await startBucketServer({ rate: RATE, burst: RATE, headers: "ietf", rows: PAGES * PAGE_SIZE });
  const folder = mkdtempSync(join(tmpdir(), "adreport-pace-"));
  try {
    const children = [0, 1].map(() =>
      spawn(process.execPath, ["--import", "tsx", __filename, "--child", server.url, folder], {
        stdio: ["pipe", "pipe", "inherit"],
      }),
    );
    const outputs = children.map((c) => {
      let out = "";
      c.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
      });
      return { ready: () => out.startsWith("ready\n"), text: () => out.slice("ready\n".length) };
    });
    const done = children.map(
      (c) =>
        new Promise<void>((resolve, reject) =>
          c.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`child exit ${code}`)))),
        ),
    );
    while (!outputs.every((o) => o.ready())) await new Promise((resolve) => setTimeout(resolve, 20));
    const startAt = Date.now() + 200;
    for (const c of children) c.stdin.end(`${startAt}\n`);
    await Promise.all(done);
    const both = outputs.map((o) => JSON.parse(o.text()) as Outcome & { end: number });
    if (process.env.PACE_DEBUG) console.log(both);
    const total: Outcome = {
      ms: Math.max(...both.map((b) => b.end)) - startAt,
      requests: both.reduce((n, b) => n + b.requests, 0),
      throttled: both.reduce((n, b) => n + b.throttled, 0),
    };
    console.log(line("two processes, one key, headers", total, ((2 * PAGES) / RATE) * 1000));
  } finally {
    await server.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

async function child(url: string, folder: string): Promise<void> {
  const pacer = new Pacer({ ledger: new FilePaceLedger(paceLedgerPath(folder, url, KEY)) });
  process.stdout.write("ready\n");
  let input = "";
  for await (const chunk of process.stdin) input += String(chunk);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(input) - Date.now())));
  const outcome = await exportOnce(url, pacer);
  process.stdout.write(JSON.stringify({ ...outcome, end: Date.now(), stats: pacer.stats }));
}

/** A cap of 10/s against a service that allows far more: the most requests seen in any second. */
async function capped(): Promise<void> {
  const cap = parseRate("10/s") as Rate;
  const server = await startBucketServer({ rate: 1000, burst: 1000, headers: "none", rows: 30 * PAGE_SIZE });
  try {
    const started = performance.now();
    const api = new ReportApi({
      baseUrl: server.url,
      apiKey: KEY,
      userAgent: "b",
      timeoutMs: 10_000,
      retries: 0,
      pacer: new Pacer({ cap }),
    });
    for await (const _ of (await openReport(api, REQUEST, { pageSize: PAGE_SIZE, concurrency: 8 })).pages);
    await api.close();
    const at = server.arrivals.map((a) => a.at);
    const most = Math.max(...at.map((t) => at.filter((u) => u >= t && u < t + 1000).length));
    console.log(
      `cap 10/s, 30 pages                 at most ${most} requests in any second, ${((performance.now() - started) / 1000).toFixed(2)} s`,
    );
  } finally {
    await server.close();
  }
}

export async function benchPace(): Promise<void> {
  await single("none", false);
  await single("ietf");
  await single("none");
  await twoProcesses();
  await capped();
}

const args = process.argv.slice(2);
if (args[0] === "--child") {
  void child(args[1] as string, args[2] as string);
} else if (require.main === module) {
  void benchPace();
}
