/**
 * The guard's figures: each one's goal (the issues') and noise margin (measured on this machine, see the
 * table in bench/README.md), and the small data set that serve on PostgreSQL is measured on.
 */
import { renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { PostgresCluster } from "../test/helpers/postgres-cluster";
import { keptDatabase, WORK } from "./data";
import type { Check } from "./guard-verdict";
import { cli } from "./lib";

export type Spec = Pick<Check, "unit" | "goal" | "direction" | "margin">;

const at = (goal: number, unit: Check["unit"], margin: number): Spec => ({ unit, goal, direction: "<=", margin });

export const CHECKS: Record<string, Spec> = {
  "startup.version": at(1.3, "x", 0.25),
  "startup.help": at(1.3, "x", 0.25),
  "startup.report_help": at(1.3, "x", 0.25),
  "startup.report_format_nope": at(1.3, "x", 0.25),
  "startup.no_such_flag": at(1.3, "x", 0.25),
  "startup.report_no_such_flag": at(1.3, "x", 0.25),
  "startup.report_from_garbage": at(1.3, "x", 0.25),
  "startup.report_dims_campaign_nope": at(1.3, "x", 0.25),
  "startup.report_granularity_fortnight": at(1.3, "x", 0.25),
  "serve.first_page_500k": at(250, "ms", 0.3),
  "serve.pages_vs_first": at(3, "x", 0.2),
  "serve.page_vs_floor": at(3.5, "x", 0.2),
  "serve.page400_first": at(2, "x", 0.3),
  "report.one_page_vs_fetch": at(0.95, "x", 0.25),
  "export.ndjson_vs_raw": at(1.05, "x", 0.15),
  "export.ndjson_vs_plain_export": at(0.9, "x", 0.15),
  "export.csv_1m_rss": at(96, "MB", 0.05),
  "top.rss_vs_plain": at(1.1, "x", 0.05),
  "accounts.time_vs_loop": at(0.35, "x", 0.25),
  "accounts.rss_vs_one": at(1.2, "x", 0.05),
  "targets.sqlite_vs_csv": at(1.5, "x", 0.3),
  "targets.postgres_vs_csv": at(2, "x", 0.3),
  "columnar.parquet_vs_csv": at(1.15, "x", 0.3),
  "columnar.parquet_size_vs_csv": at(0.35, "x", 0.05),
  "columnar.parquet_1m_rss": at(128, "MB", 0.05),
  "columnar.parquet_writer_cpu": { unit: "k rows/s", goal: 200, direction: ">=", margin: 0.25 },
  "targets.duckdb_vs_csv": at(1.15, "x", 0.3),
  "targets.duckdb_rss": at(128, "MB", 0.05),
  "pg.first_page_500k": at(250, "ms", 0.3),
  "pg.pages_vs_first": at(3, "x", 0.2),
  "pg.page_vs_floor": at(2, "x", 0.3),
  "pg.page400_first": at(2, "x", 0.3),
  "pg.first_page_vs_sqlite": at(2, "x", 0.35),
  "pg.first_page_vs_floor": at(1.5, "x", 0.35),
  "pg.throughput_vs_sqlite": { unit: "x", goal: 1 / 1.5, direction: ">=", margin: 0.55 },
  "abuse.varied_rss_8": at(Number.NaN, "MB", 0.05),
  "abuse.varied_rss_64": at(Number.NaN, "MB", 0.05),
};

/**
 * A measured figure against its spec; `goal` replaces the spec's where it depends on the run's settings,
 * `floor` is the best possible value measured in the run (guard-verdict.ts).
 */
export function check(name: string, value: number, note?: string, goal?: number, floor?: number): Check {
  const spec = CHECKS[name];
  if (spec === undefined) throw new Error(`no spec for guard figure ${name}`);
  return { name, value, note, ...spec, goal: goal ?? spec.goal, ...(floor === undefined ? {} : { floor }) };
}

/** A figure that could not be measured: short beyond any margin, with the reason. */
export function failed(name: string, reason: string): Check {
  return check(name, Number.NaN, `not measured: ${reason}`);
}

/**
 * The data set of the PostgreSQL figures: 2 advertisers x 500 ads x 90 days hourly (about 1M rows), generated
 * once into .bench/ for SQLite and loaded into a throwaway cluster on every run (the 5.4M-row set takes minutes).
 */
export const GUARD_PG_DATA = [
  "--advertisers",
  "2",
  "--campaigns",
  "10",
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
export const GUARD_PG_DB = join(WORK, "guard-1000-ads-90-days.db");
/** The cluster's database holding GUARD_PG_DATA. */
export const GUARD_PG_DATABASE = "guard";

/** The URL of the cluster's database holding GUARD_PG_DATA, loaded the first time (minutes), kept after. */
export async function ensureGuardPgDatabase(cluster: PostgresCluster): Promise<string> {
  const found = await cluster.sql("SELECT datname FROM pg_database WHERE datname = 'guard'");
  if (found.rowCount === 0) {
    console.error("  (loading the PostgreSQL data set once: a few minutes)");
    await cluster.sql("DROP DATABASE IF EXISTS guard_loading");
    const url = await cluster.createDatabase("guard_loading");
    cli(["serve", "demo", "--db", url, ...GUARD_PG_DATA]);
    await cluster.sql("ALTER DATABASE guard_loading RENAME TO guard");
  }
  const url = cluster.adminUrl.replace(/\/postgres$/, "/guard");
  // Kept from an earlier run: brought to this adreport's layout (nothing to do when it is current).
  if (found.rowCount !== 0) cli(["serve", "upgrade", "--db", url]);
  return url;
}

export function ensureGuardPgDb(): void {
  if (keptDatabase(GUARD_PG_DB)) return;
  rmSync(`${GUARD_PG_DB}.tmp`, { force: true });
  cli(["serve", "demo", "--db", `${GUARD_PG_DB}.tmp`, ...GUARD_PG_DATA]);
  renameSync(`${GUARD_PG_DB}.tmp`, GUARD_PG_DB);
}
