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
