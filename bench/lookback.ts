/**
 * `--lookback auto` (issue 40): 90 simulated days of daily runs against serve's restatement model (its clock
 * moved a day at a time with `serve clock --advance 1d`), for an hourly `ad,date` job and a daily
 * `campaign,date` job, each run three ways: `--lookback auto`, fixed `30d`, fixed `3d`. Figures: requests of
 * auto against 30d (goal <= 0.5x) and 3d (goal: no more than 3d plus one request per 90 checked days),
 * the days `verify --against-service` then finds different (goal 0 for auto; 3d's misses for comparison),
 * and the day files that differ from a fresh export. Then, on a service without restatements, a run where
 * nothing changed (totals request + the new day) against a run that fetches only the new day (goal
 * <= 1.2x; runs alternated, medians). The CLI runs in this process, its clock set per run.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { run as runCli } from "../src/cli/main";
import { systemContext } from "../src/cli/system-context";
import type { Context } from "../src/commands/context";
import { WORK } from "./data";
import { BIN, cli, ensureBuilt, figure, median } from "./lib";
import { startServe } from "./serve-process";

const DAY_MS = 86_400_000;
const SIM_DAYS = 90;
const HISTORY_DAYS = 30;
const ADVERTISER = "Acme Outdoor";
/** 1 advertiser, 8 campaigns of 5 ads: about 670 hourly ad rows a day (a page of 1000), 8 campaign rows a day. */
const DATA = ["--advertisers", "1", "--campaigns", "8", "--ads", "5", "--keywords", "0", "--activity", "0.7"];
/** The simulation's first run day (a run at 06:00 UTC exports up to the day before). */
const FIRST = Date.UTC(2026, 6, 1);

const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const JOBS = {
  "ad,date hourly": ["--dims", "ad,date", "--granularity", "hour"],
  "campaign,date": ["--dims", "campaign,date"],
} as const;
const LOOKBACKS = ["auto", "30d", "3d"] as const;
type JobName = keyof typeof JOBS;
type Lookback = (typeof LOOKBACKS)[number];

interface Summary {
  requests: number;
  rows: number;
  days_written: number;
  from?: string;
}

/** A quiet context for one in-process run at `now`. */
function contextAt(now: Date, env: Record<string, string>, cwd: string): Context {
  const base = systemContext();
  const sink = { write: () => true } as unknown as NodeJS.WritableStream;
  return {
    ...base,
    io: { ...base.io, out: sink, err: sink } as Context["io"],
    env: { ...process.env, ...env },
    cwd,
    now: () => now,
  };
}

async function runAt(args: string[], now: Date, env: Record<string, string>, cwd: string): Promise<number> {
  return runCli(args, contextAt(now, env, cwd));
}

interface Lane {
  job: JobName;
  lookback: Lookback;
  /** Requests go through a service of another make, which refuses the totals request (400). */
  otherMake?: boolean;
  folder: string;
  env: Record<string, string>;
  requests: number[];
  rows: number[];
  /** Per run: the checked days of auto (from its ledger's last decision). */
  checkedDays: number[];
  /** Per run of auto: the pages of the days it fetched again that a fixed 3d lookback never fetches (older). */
  olderPages: number[];
  /** Per run of auto: those days. */
  olderDays: number[];
}

function laneArgs(lane: Lane): string[] {
  return [
    "report",
    ...JOBS[lane.job],
    "-o",
    join(lane.folder, "out", "{date}.csv"),
    "--incremental",
    "--lookback",
    lane.lookback,
    "-q",
    "--summary-file",
    join(lane.folder, "summary.json"),
  ];
}

interface Decision {
  end: string;
  checked: { days: number } | null;
  mode: string;
  refetched: Array<{ day: string; why: string }>;
}

function stateOf(lane: Lane): {
  autoLookback?: { learnedHorizonDays: number | null; decisions: Decision[] };
  days: Record<string, { rows: number }>;
} {
  const folder = join(lane.folder, "config", "state");
  const name = readdirSync(folder).find((n) => /^[0-9a-f]{8}\.json$/.test(n)) as string;
  return JSON.parse(readFileSync(join(folder, name), "utf8"));
}

/**
 * The days an auto run fetched again that are older than a fixed 3d lookback reaches (restatements 3d
 * misses), grouped as consecutive days, and the pages they take at 1000 rows a page (rows from the ledger).
 */
function olderThanThreeDays(
  decision: Decision | undefined,
  days: Record<string, { rows: number }>,
): { days: number; pages: number } {
  if (decision === undefined) return { days: 0, pages: 0 };
  const end = Date.parse(decision.end);
  const older = decision.refetched
    .map((r) => r.day)
    .filter((day) => (end - Date.parse(day)) / DAY_MS > 3)
    .sort();
  let pages = 0;
  let rows = 0;
  let previous = Number.NaN;
  for (const day of older) {
    const at = Date.parse(day);
    if (at - previous !== DAY_MS && rows > 0) {
      pages += Math.ceil(rows / 1000);
      rows = 0;
    }
    rows += Math.max(1, days[day]?.rows ?? 1);
    previous = at;
  }
  if (rows > 0) pages += Math.ceil(rows / 1000);
  return { days: older.length, pages };
}

function jobIdOf(lane: Lane): string {
  const folder = join(lane.folder, "config", "state");
  return (readdirSync(folder).find((n) => /^[0-9a-f]{8}\.json$/.test(n)) as string).slice(0, 8);
}

async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

export async function benchLookback(parts: { simulated: boolean } = { simulated: true }): Promise<void> {
  ensureBuilt();
  const root = join(WORK, "lookback");
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  if (parts.simulated) await simulated(root);
  await nothingChanged(root);
}

/** Part 1: 90 days against the restatement model. */
async function simulated(root: string): Promise<void> {
  const db = join(root, "restating.db");
  const end = dayText(FIRST + SIM_DAYS * DAY_MS);
  const days = String(SIM_DAYS + HISTORY_DAYS + 1);
  cli(["serve", "demo", "--db", db, ...DATA, "--days", days, "--end", end, "--restate-seed", "7"]);
  cli(["serve", "clock", "--db", db, "--set", `${dayText(FIRST)}T06:00:00Z`]);
  const key = cli(["serve", "key", "issue", "--db", db, "--advertiser", ADVERTISER, "--ip", "127.0.0.1"]).trim();
  const server = await startServe(db);
  try {
    const lanes: Lane[] = [];
    const other = await otherMake(server.url);
    {
      const folder = join(root, "ad-date-hourly-auto-other-make");
      mkdirSync(join(folder, "out"), { recursive: true });
      const env = { ADREPORT_CONFIG_DIR: join(folder, "config"), ADREPORT_API_KEY: key, ADREPORT_BASE_URL: other.url };
      const empty = { requests: [], rows: [], checkedDays: [], olderPages: [], olderDays: [] };
      lanes.push({ job: "ad,date hourly", lookback: "auto", otherMake: true, folder, env, ...empty });
    }
    for (const job of Object.keys(JOBS) as JobName[]) {
      for (const lookback of LOOKBACKS) {
        const folder = join(root, `${job.replace(/[^a-z]+/g, "-")}-${lookback}`);
        mkdirSync(join(folder, "out"), { recursive: true });
        const env = {
          ADREPORT_CONFIG_DIR: join(folder, "config"),
          ADREPORT_API_KEY: key,
          ADREPORT_BASE_URL: server.url,
        };
        lanes.push({
          job,
          lookback,
          folder,
          env,
          requests: [],
          rows: [],
          checkedDays: [],
          olderPages: [],
          olderDays: [],
        });
      }
    }
    const start = dayText(FIRST - HISTORY_DAYS * DAY_MS);
    for (const lane of lanes) {
      const code = await runAt(
        [...laneArgs(lane), "--start", start],
        new Date(FIRST + 6 * 3_600_000),
        lane.env,
        lane.folder,
      );
      if (code !== 0) throw new Error(`${lane.job} ${lane.lookback}: the first run exited ${code}`);
    }
    for (let i = 1; i <= SIM_DAYS; i += 1) {
      cli(["serve", "clock", "--db", db, "--advance", "1d"]);
      await sleep(300); // serve looks at its clock every quarter of a second
      const now = new Date(FIRST + i * DAY_MS + 6 * 3_600_000);
      for (const lane of lanes) {
        const code = await runAt(laneArgs(lane), now, lane.env, lane.folder);
        if (code !== 0) throw new Error(`${lane.job} ${lane.lookback}: day ${i} exited ${code}`);
        const summary = JSON.parse(readFileSync(join(lane.folder, "summary.json"), "utf8")) as Summary;
        lane.requests.push(summary.requests);
        lane.rows.push(summary.rows);
        if (lane.lookback === "auto") {
          const state = stateOf(lane);
          const decision = state.autoLookback?.decisions.at(-1);
          lane.checkedDays.push(decision?.mode === "checked" ? (decision.checked?.days ?? 0) : 0);
          const older = olderThanThreeDays(decision, state.days);
          lane.olderPages.push(older.pages);
          lane.olderDays.push(older.days);
        }
      }
    }
    const after = new Date(FIRST + (SIM_DAYS + 1) * DAY_MS + 6 * 3_600_000);
    const sum = (list: number[]) => list.reduce((a, b) => a + b, 0);
    console.log(`  90 daily runs against the restatement model (horizon 30 days, seed 7); requests and rows fetched:`);
    for (const job of Object.keys(JOBS) as JobName[]) {
      const of = (lookback: Lookback) =>
        lanes.find((l) => l.job === job && l.lookback === lookback && !l.otherMake) as Lane;
      const auto = of("auto");
      const thirty = of("30d");
      const three = of("3d");
      for (const lane of [auto, thirty, three]) {
        figure(`${job}, --lookback ${lane.lookback}`, `${sum(lane.requests)} requests, ${sum(lane.rows)} rows`);
      }
      const ratio = sum(auto.requests) / sum(thirty.requests);
      figure(
        `${job}: auto / 30d, requests`,
        // A job whose 30 days fit one page: every lookback costs one request a run, nothing to halve.
        `${ratio.toFixed(2)}x (rows ${(sum(auto.rows) / sum(thirty.rows)).toFixed(2)}x)${sum(thirty.requests) === SIM_DAYS ? "; 30d is one request a run" : ""}`,
        ratio <= 0.5,
      );
      // Per run: auto against 3d plus one request per 90 checked days; then the same with the pages of the
      // restated days older than 3d reaches (which 3d never fetches: its misses) taken out of auto's.
      let over = 0;
      let overOwn = 0;
      for (let i = 0; i < SIM_DAYS; i += 1) {
        const allowance = (three.requests[i] as number) + Math.ceil((auto.checkedDays[i] as number) / 90);
        if ((auto.requests[i] as number) > allowance) over += 1;
        if ((auto.requests[i] as number) - (auto.olderPages[i] as number) > allowance) overOwn += 1;
      }
      const budget = sum(three.requests) + sum(auto.checkedDays.map((d) => Math.ceil(d / 90)));
      figure(
        `${job}: auto against 3d + 1 per 90 checked days`,
        `${sum(auto.requests)} vs ${budget}; runs over it: ${over} of ${SIM_DAYS}`,
        sum(auto.requests) <= budget,
      );
      const own = sum(auto.requests) - sum(auto.olderPages);
      figure(
        `${job}: the same without the ${sum(auto.olderDays)} older restated days 3d misses`,
        `${own} vs ${budget}; runs over it: ${overOwn} of ${SIM_DAYS}`,
        own <= budget,
      );
      const learned = stateOf(auto).autoLookback?.learnedHorizonDays;
      figure(`${job}: learned horizon after 90 runs`, `${learned} days`);
      for (const lane of [auto, thirty, three]) {
        const verified = await verifyAgainstService(lane, after);
        const stale = await staleFiles(lane, after, root);
        figure(
          `${job}, ${lane.lookback}: verify --against-service`,
          `${verified} days differ; ${stale} day files differ from a fresh export`,
          lane.lookback === "auto" ? verified === 0 && stale === 0 : undefined,
        );
      }
    }
    const lane = lanes.find((l) => l.otherMake) as Lane;
    const verified = await verifyAgainstService(lane, after, server.url);
    const stale = await staleFiles(lane, after, root);
    figure(
      "ad,date hourly, auto, a service of another make (totals refused)",
      `${sum(lane.requests)} requests; verify: ${verified} days differ, ${stale} day files`,
    );
    await other.close();
  } finally {
    await server.stop();
  }
}

/** A service of another make in front of serve: the totals request (by day for an hourly job) is a 400. */
async function otherMake(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const up = new URL(target);
  const server = createServer((req, res) => {
    const params = new URL(req.url ?? "/", "http://x").searchParams;
    if (params.get("granularity") === "day") {
      res.writeHead(400, { "content-type": "application/json" });
      res.end('{"error":{"message":"this account reports by the hour"}}');
      return;
    }
    const upstream = request(
      { host: up.hostname, port: up.port, path: req.url, method: req.method, headers: req.headers },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function verifyAgainstService(lane: Lane, now: Date, baseUrl?: string): Promise<number> {
  const out = join(lane.folder, "verify.json");
  const code = await runAt(
    [
      "verify",
      jobIdOf(lane),
      "--against-service",
      "-f",
      "json",
      "-o",
      out,
      ...(baseUrl ? ["--base-url", baseUrl] : []),
    ],
    now,
    lane.env,
    lane.folder,
  );
  if (code !== 0 && code !== 7) throw new Error(`verify exited ${code}`);
  const result = JSON.parse(readFileSync(out, "utf8")) as { differences: Array<{ kind: string }> };
  return result.differences.filter((d) => d.kind === "service").length;
}

/** Day files that differ from the same days exported afresh now (one plain run into other {date} files). */
async function staleFiles(lane: Lane, now: Date, root: string): Promise<number> {
  const fresh = join(root, "fresh", `${lane.job.replace(/[^a-z]+/g, "-")}`);
  mkdirSync(fresh, { recursive: true });
  const days = readdirSync(join(lane.folder, "out"))
    .filter((n) => n.endsWith(".csv"))
    .sort();
  if (readdirSync(fresh).length === 0) {
    const from = (days[0] as string).slice(0, 10);
    const to = (days.at(-1) as string).slice(0, 10);
    const env = { ...lane.env, ADREPORT_CONFIG_DIR: join(fresh, "..", "config") };
    const code = await runAt(
      ["report", ...JOBS[lane.job], "--from", from, "--to", to, "-o", join(fresh, "{date}.csv"), "-q"],
      now,
      env,
      fresh,
    );
    if (code !== 0) throw new Error(`fresh export exited ${code}`);
  }
  let differ = 0;
  for (const name of days) {
    if (readFileSync(join(lane.folder, "out", name), "utf8") !== readFileSync(join(fresh, name), "utf8")) differ += 1;
  }
  return differ;
}

/**
 * Part 2: on data that does not change, an auto run (its totals request + the new day) against a run of the
 * new day only (--lookback 0d). Each job is brought in this process, its clock set, to the day before
 * yesterday, its last check having found nothing (the usual case); then each run is the CLI as cron starts
 * it (a child process at the real clock, fetching yesterday), its state and files put back before each,
 * the two alternated; the figure is the median of the per-pair ratios (the machine's load drifts). The
 * same again in this process (no start-up in it), over a month of days.
 */
async function nothingChanged(root: string): Promise<void> {
  const db = join(root, "still.db");
  const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  cli(["serve", "demo", "--db", db, ...DATA, "--days", "90", "--end", dayText(today + DAY_MS)]);
  const key = cli(["serve", "key", "issue", "--db", db, "--advertiser", ADVERTISER, "--ip", "127.0.0.1"]).trim();
  const server = await startServe(db);
  try {
    const lane = (lookback: string) => {
      const folder = join(root, `still-${lookback}`);
      mkdirSync(join(folder, "out"), { recursive: true });
      const env = { ADREPORT_CONFIG_DIR: join(folder, "config"), ADREPORT_API_KEY: key, ADREPORT_BASE_URL: server.url };
      const args = [
        "report",
        ...JOBS["ad,date hourly"],
        "-o",
        join(folder, "out", "{date}.csv"),
        "--incremental",
        "--lookback",
        lookback,
        "-q",
        "--summary-file",
        join(folder, "summary.json"),
      ];
      return { folder, env, args };
    };
    const auto = lane("auto");
    const newDay = lane("0d");
    const at = (day: number) => new Date(day + 6 * 3_600_000);
    // Up to the day before yesterday: a backfill of 30 days, then daily runs (the auto job's 2nd is its deep
    // check, the 3rd to 5th find nothing moved); the measured run is the auto job's 6th, an ordinary one.
    for (const l of [auto, newDay]) {
      if (
        (await runAt([...l.args, "--start", dayText(today - 35 * DAY_MS)], at(today - 5 * DAY_MS), l.env, l.folder)) !==
        0
      )
        throw new Error("first run failed");
      for (let d = 4; d >= 1; d -= 1) {
        if ((await runAt(l.args, at(today - d * DAY_MS), l.env, l.folder)) !== 0) throw new Error("daily run failed");
      }
    }
    const decision = (
      JSON.parse(readFileSync(join(auto.folder, "config", "state", stateName(auto.folder)), "utf8")) as {
        autoLookback: { runs: number; decisions: Array<{ mode: string; refetched: unknown[] }> };
      }
    ).autoLookback;
    if (decision.decisions.at(-1)?.mode !== "checked" || decision.decisions.at(-1)?.refetched.length !== 0)
      throw new Error("the auto job's last check found something: not the case measured");
    for (const l of [auto, newDay]) cpSync(l.folder, `${l.folder}.kept`, { recursive: true });
    const child = (l: typeof auto) => {
      rmSync(l.folder, { recursive: true, force: true });
      cpSync(`${l.folder}.kept`, l.folder, { recursive: true });
      const began = performance.now();
      const done = spawnSync(process.execPath, [BIN, ...l.args], {
        env: { ...process.env, ...l.env },
        encoding: "utf8",
      });
      const ms = performance.now() - began;
      if (done.status !== 0) throw new Error(`run exited ${done.status}: ${done.stderr}`);
      const summary = JSON.parse(readFileSync(join(l.folder, "summary.json"), "utf8")) as Summary;
      return { ms, requests: summary.requests };
    };
    const ratios: number[] = [];
    const autoMs: number[] = [];
    const newMs: number[] = [];
    let requests = "";
    for (let i = 0; i < 25; i += 1) {
      const first = i % 2 === 0 ? auto : newDay;
      const a1 = child(first);
      const a2 = child(first === auto ? newDay : auto);
      const [a, n] = first === auto ? [a1, a2] : [a2, a1];
      autoMs.push(a.ms);
      newMs.push(n.ms);
      ratios.push(a.ms / n.ms);
      requests = `${a.requests} and ${n.requests} requests`;
    }
    figure(
      `a run where nothing changed (auto), the CLI, median of ${autoMs.length}`,
      `${median(autoMs).toFixed(0)} ms`,
    );
    figure(
      `a run of the new day only (--lookback 0d), median of ${newMs.length}`,
      `${median(newMs).toFixed(0)} ms (${requests})`,
    );
    const ratio = median(ratios);
    figure("nothing changed / the new day only (median of pair ratios)", `${ratio.toFixed(2)}x`, ratio <= 1.2);
  } finally {
    await server.stop();
  }
}

function stateName(folder: string): string {
  return readdirSync(join(folder, "config", "state")).find((n) => /^[0-9a-f]{8}\.json$/.test(n)) as string;
}
