/**
 * PostgreSQL's own time for what `serve` asked of it (issue 35): planning and execution of every statement
 * run in one database, from pg_stat_statements, so a guard figure can count it out of `serve`'s. The
 * cluster must be started with `shared_preload_libraries=pg_stat_statements` (PG_OWN_TIME_SETTINGS).
 */
import type { PostgresCluster } from "../test/helpers/postgres-cluster";

export const PG_OWN_TIME_SETTINGS = [
  "shared_preload_libraries=pg_stat_statements",
  "pg_stat_statements.track_planning=on",
];

export interface PgOwnTime {
  /** Forgets what was counted so far. */
  reset(): Promise<void>;
  /** Milliseconds PostgreSQL spent planning and executing the database's statements since the last reset. */
  ms(): Promise<number>;
}

export async function pgOwnTime(cluster: PostgresCluster, database: string): Promise<PgOwnTime> {
  // Asked from the maintenance database, so these statements are not counted in `database`'s.
  await cluster.sql("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
  const quoted = database.replace(/'/g, "''");
  return {
    async reset() {
      await cluster.sql("SELECT pg_stat_statements_reset()");
    },
    async ms() {
      const result = await cluster.sql(
        `SELECT coalesce(sum(total_exec_time + total_plan_time), 0)::float8 AS ms FROM pg_stat_statements
         WHERE dbid = (SELECT oid FROM pg_database WHERE datname = '${quoted}')`,
      );
      return Number((result.rows[0] as { ms: number }).ms);
    },
  };
}
