/** The large data set the serve and report benchmarks share: 5,000 ads, 90 days of hourly data. */
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { cli, ROOT } from "./lib";

export const WORK = join(ROOT, ".bench");
export const BIG_DB = join(WORK, "serve-5000-ads-90-days.db");
export const ADVERTISER = "Acme Outdoor";
export const DATA = [
  "--advertisers",
  "2",
  "--campaigns",
  "50",
  "--ads",
  "50",
  "--keywords",
  "0",
  "--days",
  "90",
  "--activity",
  "0.5",
  "--end",
  "2026-11-01",
];

/**
 * A data set kept in .bench/ from an earlier run: brought to this adreport's layout (`serve upgrade`, which
 * changes nothing when it is current), so that a newer schema never leaves the figures unmeasured.
 */
export function keptDatabase(db: string): boolean {
  if (!existsSync(db)) return false;
  cli(["serve", "upgrade", "--db", db]);
  return true;
}

export function ensureBigDb(): void {
  if (keptDatabase(BIG_DB)) return;
  mkdirSync(WORK, { recursive: true });
  console.log("  (generating the data set once: about a minute)");
  rmSync(`${BIG_DB}.tmp`, { force: true });
  cli(["serve", "demo", "--db", `${BIG_DB}.tmp`, ...DATA]);
  renameSync(`${BIG_DB}.tmp`, BIG_DB);
}

export function issueBenchKey(): string {
  return cli([
    "serve",
    "key",
    "issue",
    "--db",
    BIG_DB,
    "--advertiser",
    ADVERTISER,
    "--ip",
    "127.0.0.1",
    "--expires-in",
    "1",
  ]).trim();
}

/**
 * The 1M-row hourly `ad,date` export of the big data set (35 days), or about 120k rows over 4 days with
 * ADREPORT_BENCH_ROWS=100k, for a machine too loaded to serve the 1M-row report in reasonable time.
 */
export const SMALL_EXPORT = process.env.ADREPORT_BENCH_ROWS === "100k";
export const HOURLY_EXPORT: readonly string[] = [
  "--dims",
  "ad,date",
  "--granularity",
  "hour",
  "--metrics",
  "views,spending,clicks,conversions",
  "--from",
  SMALL_EXPORT ? "2026-10-28" : "2026-09-27",
  "--to",
  "2026-10-31",
  "-q",
];
export const HOURLY_EXPORT_LABEL = SMALL_EXPORT ? "4-day hourly (~120k-row)" : "1M-row";
