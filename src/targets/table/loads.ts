/**
 * `adreport_loads`, beside the data in the same database: one row per run and day a run wrote, in the
 * run's transaction, so that a warehouse user can join the data's `run_id` to what the run said the day held
 * (its rows, each metric's sum, spending in integer micros) and when it came.
 */
import type { DayLoad } from "../day-target";

export const LOADS_TABLE = "adreport_loads";

/** What every row of one run shares. */
export interface LoadsOf {
  runId: string;
  job: string;
  table: string;
  profile: string;
  scope: string;
  loadedAt: Date;
}

const COLUMNS = [
  "run_id",
  "job",
  "target_table",
  "profile",
  "query_scope",
  "day",
  "row_count",
  "sums",
  "requests",
  "loaded_at",
] as const;

export const LOADS_COLUMNS: readonly string[] = COLUMNS;

export const SQLITE_LOADS_DDL = `CREATE TABLE IF NOT EXISTS ${LOADS_TABLE} (
  run_id TEXT NOT NULL, job TEXT NOT NULL, target_table TEXT NOT NULL, profile TEXT NOT NULL,
  query_scope TEXT NOT NULL, day TEXT NOT NULL, row_count INTEGER NOT NULL, sums TEXT NOT NULL,
  requests INTEGER NOT NULL, loaded_at TEXT NOT NULL)`;

export const POSTGRES_LOADS_DDL = `CREATE TABLE ${LOADS_TABLE} (
  run_id TEXT NOT NULL, job TEXT NOT NULL, target_table TEXT NOT NULL, profile TEXT NOT NULL,
  query_scope TEXT NOT NULL, day DATE NOT NULL, row_count BIGINT NOT NULL, sums JSONB NOT NULL,
  requests INTEGER NOT NULL, loaded_at TIMESTAMPTZ NOT NULL)`;

export const DUCKDB_LOADS_DDL = `CREATE TABLE IF NOT EXISTS ${LOADS_TABLE} (
  run_id VARCHAR NOT NULL, job VARCHAR NOT NULL, target_table VARCHAR NOT NULL, profile VARCHAR NOT NULL,
  query_scope VARCHAR NOT NULL, day DATE NOT NULL, row_count BIGINT NOT NULL, sums VARCHAR NOT NULL,
  requests INTEGER NOT NULL, loaded_at TIMESTAMP NOT NULL)`;

/** The values of each row, in LOADS_COLUMNS' order (sums as JSON text; loaded_at ISO 8601). */
export function loadValues(of: LoadsOf, loads: ReadonlyArray<DayLoad>): Array<Array<string | number>> {
  const at = of.loadedAt.toISOString();
  return loads.map((load) => [
    of.runId,
    of.job,
    of.table,
    of.profile,
    of.scope,
    load.day,
    load.rows,
    JSON.stringify(load.sums),
    load.requests,
    at,
  ]);
}
