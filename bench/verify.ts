/**
 * `adreport verify` (issue 25): three years of one account's `{date}` day files (1,096 CSV files, written by
 * a real `--incremental` backfill against `serve`) verified against the job's ledger without the service.
 * Goal: under 2 s, start-up included (median of 5 runs of the CLI).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { keptDatabase, WORK } from "./data";
import { BIN, cli, ensureBuilt, figure, median } from "./lib";
import { startServe } from "./serve-process";

const DB = join(WORK, "verify-3-years.db");
const FOLDER = join(WORK, "verify-3-years");
const DAYS = 1096;

function dayText(daysSinceEpoch: number): string {
  return new Date(daysSinceEpoch * 86_400_000).toISOString().slice(0, 10);
}

export async function benchVerify(): Promise<void> {
  ensureBuilt();
  const today = Math.floor(Date.now() / 86_400_000);
  if (!keptDatabase(DB)) {
    mkdirSync(WORK, { recursive: true });
    rmSync(`${DB}.tmp`, { force: true });
    const data = ["--advertisers", "1", "--campaigns", "4", "--ads", "1", "--keywords", "0", "--days", `${DAYS + 2}`];
    cli(["serve", "demo", "--db", `${DB}.tmp`, ...data, "--end", dayText(today + 1)]);
    renameSync(`${DB}.tmp`, DB);
  }
  const env = { ...process.env, ADREPORT_CONFIG_DIR: join(FOLDER, "config") };
  rmSync(FOLDER, { recursive: true, force: true });
  mkdirSync(join(FOLDER, "out"), { recursive: true });
  const key = cli(["serve", "key", "issue", "--db", DB, "--advertiser", "Acme Outdoor", "--ip", "127.0.0.1"]).trim();
  const server = await startServe(DB);
  try {
    const run = (args: string[]) =>
      spawnSync(process.execPath, [BIN, ...args], {
        cwd: FOLDER,
        encoding: "utf8",
        env: { ...env, ADREPORT_API_KEY: key, ADREPORT_BASE_URL: server.url },
      });
    const start = dayText(today - DAYS);
    const backfill = run([
      "report",
      "--incremental",
      "--start",
      start,
      "--dims",
      "campaign,date",
      "-q",
      "-o",
      "out/{date}.csv",
    ]);
    if (backfill.status !== 0) throw new Error(`backfill failed: ${backfill.stderr}`);
    const job = (JSON.parse(run(["state", "list", "--format", "json"]).stdout) as Array<{ job: string }>)[0]?.job;
    if (job === undefined) throw new Error("no job after the backfill");
    const files = readdirSync(join(FOLDER, "out")).length;
    const times: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const began = performance.now();
      const verified = run(["verify", job]);
      times.push(performance.now() - began);
      if (verified.status !== 0) throw new Error(`verify exited ${verified.status}: ${verified.stderr}`);
    }
    const ms = median(times);
    figure(`verify: ${files} day files of 3 years, no service (median of 5)`, `${ms.toFixed(0)} ms`, ms < 2000);
  } finally {
    await server.stop();
  }
}
