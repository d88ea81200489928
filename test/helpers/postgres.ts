/**
 * PostgreSQL for a test file: databases of its own on the test run's one throwaway cluster (Debian's
 * binaries, `initdb` in a temporary folder, `pg_ctl` on a free loopback port; started and stopped by
 * test/helpers/postgres-global.ts, vitest's globalSetup). As root (CI), the cluster belongs to the
 * `postgres` user, since PostgreSQL refuses to run as root.
 *
 *   const pg = usePostgres();                    // at the top of the file
 *   it("...", async (context) => { const url = await pg.database(context); ... });
 *
 * Where there are no binaries, every case calling database() is skipped with the reason printed, or fails
 * where ADREPORT_TEST_REQUIRE names postgres (test/helpers/required-tools.ts; `.ci/run` sets it).
 */
import { inject } from "vitest";
import { clusterAt, type PostgresCluster, startPostgres } from "./postgres-cluster";
import { skipMissing } from "./required-tools";

export { type PostgresCluster, startPostgres };

export interface PostgresForTests {
  /** The running cluster; skips the calling test (with the reason) where none can run, or fails it if required. */
  cluster(context: { skip(note?: string): never }): PostgresCluster;
  /** A fresh database on the cluster for one test; skips like cluster(). */
  database(context: { skip(note?: string): never }): Promise<string>;
}

/** The test run's cluster, or why there is none (the cluster is never stopped from a test file). */
export function sharedPostgres(): PostgresCluster | string {
  const shared = inject("postgres");
  if (shared === undefined) return "no PostgreSQL cluster was started for this run (vitest.config.mts globalSetup)";
  return "unavailable" in shared ? shared.unavailable : clusterAt(shared.port);
}

/** The test run's cluster for the calling test file. */
export function usePostgres(): PostgresForTests {
  const started = sharedPostgres();
  const cluster = (context: { skip(note?: string): never }) =>
    typeof started === "string" ? skipMissing(context, "postgres", started) : started;
  return {
    cluster,
    database: async (context) => await cluster(context).createDatabase(),
  };
}

/** Runs one statement on the database at `url` in a connection of its own; its rows. */
export async function queryPostgres(url: string, text: string): Promise<Array<Record<string, unknown>>> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as Array<Record<string, unknown>>;
  } finally {
    await client.end();
  }
}
