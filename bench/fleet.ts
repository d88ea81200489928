/**
 * Issue 38, a fleet: the same `report --all-profiles --incremental -o postgres://... --table T` line on 4
 * hosts at once against 1 host, with the same --account-concurrency, 200 accounts (profiles, each a key of
 * its own), serve answering each page after 50 ms. Hosts are processes of the built CLI with their own
 * HOME, config folder and temp folder, sharing PostgreSQL and the service. Figures: the 4 hosts' wall over
 * the 1 host's (median of 3, run alternately), each account-day exactly once (days written in all equal to
 * the one host's, table and ledger equal); then one of 4 hosts killed -9 at a random moment: the others exit
 * 0 and the end state equals the clean run's.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openOperatorStore } from "../src/server";
import type { PostgresCluster } from "../test/helpers/postgres-cluster";
import { keptDatabase, WORK } from "./data";
import { BIN, cli, ensureBuilt, figure, median } from "./lib";
import { startBenchCluster } from "./postgres-cluster";
import { startServe } from "./serve-process";

/** FLEET_ACCOUNTS=40 for a quick look; the figures are of 200. */
const ACCOUNTS = Number(process.env.FLEET_ACCOUNTS ?? 200);
/** 42 rows an account: 9 pages of 5 (FLEET_PAGE_SIZE=10: 5 pages), each answered after 50 ms. */
const PAGE_SIZE = process.env.FLEET_PAGE_SIZE ?? "5";
const CONCURRENCY = 4;
const HOSTS = 4;
const RUNS = 3;
const DB = join(WORK, "fleet-14-days.db");
const FOLDER = join(WORK, "fleet");
const names = Array.from({ length: ACCOUNTS }, (_, i) => `p${String(i + 1).padStart(3, "0")}`);

function dayText(daysSinceEpoch: number): string {
  return new Date(daysSinceEpoch * 86_400_000).toISOString().slice(0, 10);
}

async function issueKeys(): Promise<string[]> {
  const store = await openOperatorStore(DB, { create: false });
  try {
    const now = Math.floor(Date.now() / 1000);
    const keys: string[] = [];
    for (let i = 0; i < ACCOUNTS; i += 1) {
      keys.push(
        (await store.issueKey({ advertiser: "Acme Outdoor", ips: ["127.0.0.1"], expiresAt: undefined, now })).key,
      );
    }
    return keys;
  } finally {
    await store.close();
  }
}

interface HostRun {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

export async function benchFleet(): Promise<void> {
  ensureBuilt();
  const today = Math.floor(Date.now() / 86_400_000);
  if (!keptDatabase(DB)) {
    mkdirSync(WORK, { recursive: true });
    rmSync(`${DB}.tmp`, { force: true });
    const data = ["--advertisers", "1", "--campaigns", "3", "--ads", "2", "--keywords", "0", "--days", "16"];
    cli(["serve", "demo", "--db", `${DB}.tmp`, ...data, "--activity", "1", "--end", dayText(today + 1)]);
    renameSync(`${DB}.tmp`, DB);
  }
  rmSync(FOLDER, { recursive: true, force: true });
  mkdirSync(FOLDER, { recursive: true });
  const keys = await issueKeys();
  const server = await startServe(DB, ["--faults", "delay:50ms"]);
  const cluster: PostgresCluster | string = await startBenchCluster();
  if (typeof cluster === "string") {
    console.log(`  (skipped: ${cluster})`);
    await server.stop();
    return;
  }
  const profiles = Object.fromEntries(names.map((name, i) => [name, { "api-key": keys[i], "base-url": server.url }]));
  let homes = 0;
  const line = (database: string) => [
    BIN,
    "report",
    "--all-profiles",
    "--dims",
    "campaign,date",
    "--incremental",
    "--start",
    dayText(today - 14),
    "--page-size",
    PAGE_SIZE,
    "--account-concurrency",
    String(CONCURRENCY),
    "--table",
    "ads",
    "-q",
    "--summary",
    "json",
    "-o",
    database,
  ];
  const host = (database: string, timed: boolean): HostRun => {
    homes += 1;
    const home = join(FOLDER, `home-${homes}`);
    mkdirSync(join(home, ".config", "adreport"), { recursive: true, mode: 0o700 });
    mkdirSync(join(home, "tmp"), { recursive: true });
    writeFileSync(join(home, ".config", "adreport", "config.json"), JSON.stringify({ settings: {}, profiles }), {
      mode: 0o600,
    });
    const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, ".config"), TMPDIR: join(home, "tmp") };
    // Under GNU time: the CPU seconds each host spent (user + system), said after its summary.
    const [command, args] = timed
      ? ["/usr/bin/time", ["-f", "__cpu %U %S", process.execPath, ...line(database)]]
      : [process.execPath, line(database)];
    const child = spawn(command, args, { env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr?.on("data", (c: Buffer) => {
      stderr += c.toString();
    });
    const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
      child.on("close", (code, signal) => {
        writeFileSync(join(home, "stderr.txt"), stderr); // what each host said, kept for a look
        resolve({ code, signal, stderr });
      }),
    );
    return { child, done };
  };
  const fleet = async (count: number, database: string, kill?: number) => {
    const started = performance.now();
    // The killed host is the CLI itself (not GNU time over it): the others are timed.
    const hosts = Array.from({ length: count }, (_, i) => host(database, !(kill !== undefined && i === 0)));
    if (kill !== undefined) setTimeout(() => hosts[0]?.child.kill("SIGKILL"), kill);
    const results = await Promise.all(hosts.map((h) => h.done));
    const ms = performance.now() - started;
    const cpu = results.reduce((sum, r) => {
      const match = /__cpu ([\d.]+) ([\d.]+)/.exec(r.stderr);
      return sum + (match ? Number(match[1]) + Number(match[2]) : 0);
    }, 0);
    type Summary = { accounts: Array<{ outcome: string; days_written?: number }> };
    const summaryOf = (stderr: string) =>
      JSON.parse(
        stderr
          .split("\n")
          .filter((l) => l.startsWith("{"))
          .pop() as string,
      ) as Summary;
    const written = results
      .filter((r) => r.code === 0)
      .flatMap((r) => summaryOf(r.stderr).accounts)
      .filter((a) => a.outcome === "ok")
      .reduce((sum, a) => sum + (a.days_written ?? 0), 0);
    return { ms, cpu, results, written };
  };
  const table = async (database: string) =>
    JSON.stringify(
      await queryRows(database, `SELECT profile, campaign_id, "date"::text, views, clicks FROM ads ORDER BY 1, 2, 3`),
    );
  const ledger = async (database: string) =>
    JSON.stringify(
      (await queryRows(database, "SELECT state::text AS s FROM adreport_jobs"))
        .flatMap((row) => {
          const state = JSON.parse(row.s as string) as { job: { profile: string }; days: Record<string, unknown> };
          return Object.keys(state.days).map((day) => `${state.job.profile} ${day}`);
        })
        .sort(),
    );
  try {
    const one: number[] = [];
    const four: number[] = [];
    const oneCpu: number[] = [];
    const fourCpu: number[] = [];
    let clean = "";
    let cleanLedger = "";
    let exact = true;
    let allZero = true;
    for (let i = 0; i < RUNS; i += 1) {
      const single = await cluster.createDatabase();
      const a = await fleet(1, single);
      const many = await cluster.createDatabase();
      const b = await fleet(HOSTS, many);
      allZero &&= [...a.results, ...b.results].every((r) => r.code === 0);
      one.push(a.ms);
      four.push(b.ms);
      oneCpu.push(a.cpu);
      fourCpu.push(b.cpu);
      clean = await table(single);
      cleanLedger = await ledger(single);
      exact &&= b.written === a.written && (await table(many)) === clean && (await ledger(many)) === cleanLedger;
      if (i === 0) figure(`one run: account-days written`, `${a.written} (1 host) / ${b.written} (${HOSTS} hosts)`);
    }
    const ratio = median(four) / median(one);
    figure(
      `${ACCOUNTS} accounts x ${PAGE_SIZE}-row pages, 1 host, --account-concurrency ${CONCURRENCY} (median of ${RUNS})`,
      `${(median(one) / 1000).toFixed(2)} s`,
    );
    figure(
      `${HOSTS} hosts at once, the same line (median of ${RUNS})`,
      `${(median(four) / 1000).toFixed(2)} s  ${ratio.toFixed(2)}x`,
      ratio <= 0.35,
    );
    figure(
      "CPU time, user + system: 1 host / the 4 hosts together (median)",
      `${median(oneCpu).toFixed(1)} s / ${median(fourCpu).toFixed(1)} s`,
    );
    figure(
      "each account-day once, table and ledger as 1 host's; every exit 0",
      exact && allZero ? "yes" : "NO",
      exact && allZero,
    );
    // One of 4 killed -9 at a random moment of the run (10% to 80% of the 4 hosts' median wall).
    const killAt = Math.round(median(four) * (0.1 + Math.random() * 0.7));
    const killed = await cluster.createDatabase();
    const k = await fleet(HOSTS, killed, killAt);
    const othersOk = k.results.slice(1).every((r) => r.code === 0);
    const same = (await table(killed)) === clean && (await ledger(killed)) === cleanLedger;
    figure(
      `one of ${HOSTS} killed -9 at ${killAt} ms: the others exit 0, end state = clean run's`,
      `${othersOk ? "exit 0" : `exits ${k.results.map((r) => r.code ?? r.signal).join(",")}`}, ${same ? "same" : "DIFFERENT"}`,
      othersOk && same,
    );
  } finally {
    cluster.stop();
    await server.stop();
  }
}

async function queryRows(url: string, text: string): Promise<Array<Record<string, unknown>>> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as Array<Record<string, unknown>>;
  } finally {
    await client.end();
  }
}
