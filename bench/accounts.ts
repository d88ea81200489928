/**
 * `report --all-profiles` (issue 16): 20 profiles, each its own advertiser and key, a 10-page report each,
 * against `serve --faults delay:50ms`. Wall time at --account-concurrency 4 against a sequential shell
 * loop over the profiles (one `adreport report --profile P` process after another, what an agency runs
 * today), and peak RSS against one account alone.
 */
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { keptDatabase, WORK } from "./data";
import { BIN, cli, ensureBuilt, figure, measureCommand, median, timeAsync } from "./lib";
import { startServe } from "./serve-process";

const PROFILES = 20;
const DB = join(WORK, "accounts-20-advertisers.db");
const CONFIG = join(WORK, "accounts-config");
/** 3 campaigns x 4 ads, every hour active: 12 ads x 30 days = 360 rows an advertiser, 10 pages of 36. */
const DATA = ["--advertisers", `${PROFILES}`, "--campaigns", "3", "--ads", "4", "--keywords", "0", "--days", "35"];
const REPORT = ["--from", "2026-10-01", "--to", "2026-10-30", "--dims", "ad,date", "--page-size", "36"];
const DEMO_NAMES = ["Acme Outdoor", "Globex, Inc.", 'Café "Zürich" GmbH', "東京メディア", "Søren & Co"];
const DEV_NULL = openSync("/dev/null", "w");

function ensureDb(): void {
  if (keptDatabase(DB)) return;
  mkdirSync(WORK, { recursive: true });
  rmSync(`${DB}.tmp`, { force: true });
  cli(["serve", "demo", "--db", `${DB}.tmp`, ...DATA, "--activity", "1", "--end", "2026-11-01"]);
  renameSync(`${DB}.tmp`, DB);
}

/** A config folder with one profile per advertiser (p01 ... p20), each with a fresh key for 127.0.0.1. */
function writeProfiles(baseUrl: string): void {
  const profiles: Record<string, Record<string, string>> = {};
  for (let i = 0; i < PROFILES; i += 1) {
    const advertiser = DEMO_NAMES[i] ?? `Advertiser ${i + 1}`;
    const key = cli(["serve", "key", "issue", "--db", DB, "--advertiser", advertiser, "--ip", "127.0.0.1"]).trim();
    profiles[`p${String(i + 1).padStart(2, "0")}`] = { "api-key": key, "base-url": baseUrl };
  }
  mkdirSync(CONFIG, { recursive: true, mode: 0o700 });
  chmodSync(CONFIG, 0o700);
  writeFileSync(join(CONFIG, "config.json"), JSON.stringify({ settings: {}, profiles }), { mode: 0o600 });
}

function report(args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "report", ...REPORT, "--format", "ndjson", "-q", ...args], {
      stdio: ["ignore", DEV_NULL, "pipe"],
      env: { ...process.env, ADREPORT_CONFIG_DIR: CONFIG },
    });
    let stderr = "";
    child.stderr?.on("data", (c: Buffer) => {
      stderr += c.toString();
    });
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`report exited ${code}: ${stderr}`))));
  });
}

async function sequentialLoop(): Promise<void> {
  for (let i = 1; i <= PROFILES; i += 1) await report(["--profile", `p${String(i).padStart(2, "0")}`]);
}

/** Wall ms (median of `runs`, interleaved, after a warm-up) and peak RSS in MB (median of `rssRuns`). */
export interface AccountsFigures {
  loopMs: number;
  oursMs: number;
  oneMb: number;
  manyMb: number;
}

export async function measureAccounts(runs: number, rssRuns: number): Promise<AccountsFigures> {
  ensureDb();
  const server = await startServe(DB, ["--faults", "delay:50ms"]);
  try {
    writeProfiles(server.url);
    const all = ["--all-profiles", "--account-concurrency", "4"];
    await report(all); // warm-up: the service computes each report once
    const loop: number[] = [];
    const ours: number[] = [];
    for (let i = 0; i < runs; i += 1) {
      loop.push(await timeAsync(sequentialLoop));
      ours.push(await timeAsync(() => report(all)));
    }
    const env = { ADREPORT_CONFIG_DIR: CONFIG };
    const peak = (args: readonly string[]) =>
      median(
        Array.from(
          { length: rssRuns },
          () => measureCommand(process.execPath, [BIN, "report", ...REPORT, "--format", "ndjson", ...args], env).peakMb,
        ),
      );
    return { loopMs: median(loop), oursMs: median(ours), oneMb: peak(["--profile", "p01"]), manyMb: peak(all) };
  } finally {
    await server.stop();
  }
}

export async function benchAccounts(): Promise<void> {
  ensureBuilt();
  const { loopMs, oursMs, oneMb: one, manyMb: many } = await measureAccounts(3, 3);
  const ratio = oursMs / loopMs;
  figure(`sequential loop, ${PROFILES} processes x 10 pages (median of 3)`, `${loopMs.toFixed(0)} ms`);
  figure(
    "report --all-profiles --account-concurrency 4 (median of 3)",
    `${oursMs.toFixed(0)} ms  ${ratio.toFixed(2)}x`,
    ratio <= 0.35,
  );
  figure("one account: peak RSS (median of 3)", `${one.toFixed(0)} MB`);
  figure(
    `${PROFILES} accounts, 4 at once: peak RSS (median of 3)`,
    `${many.toFixed(0)} MB  ${(many / one).toFixed(2)}x`,
    many / one <= 1.2,
  );
}
