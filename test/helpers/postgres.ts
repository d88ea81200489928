/**
 * A throwaway PostgreSQL server for a test file: Debian's binaries, a cluster made by `initdb` in a
 * temporary folder, `pg_ctl` on a free loopback port, stopped and removed after the file. As root (CI),
 * the cluster belongs to the `postgres` user, since PostgreSQL refuses to run as root.
 *
 *   const pg = usePostgres();                    // at the top of the file: starts in beforeAll
 *   it("...", async (context) => { const url = await pg.database(context); ... });
 *
 * Where there are no binaries, every case calling database() is skipped with the reason printed, or fails
 * where ADREPORT_TEST_REQUIRE names postgres (test/helpers/required-tools.ts; `.ci/run` sets it).
 */
import { afterAll, beforeAll } from "vitest";
import { type PostgresCluster, startPostgres } from "./postgres-cluster";
import { skipMissing } from "./required-tools";

export { type PostgresCluster, startPostgres };

export interface PostgresForTests {
  /** The running cluster; skips the calling test (with the reason) where none can run, or fails it if required. */
  cluster(context: { skip(note?: string): never }): PostgresCluster;
  /** A fresh database on the cluster for one test; skips like cluster(). */
  database(context: { skip(note?: string): never }): Promise<string>;
}

/** One cluster for the calling test file, started before its first test and stopped after its last. */
export function usePostgres(): PostgresForTests {
  let started: PostgresCluster | string = "not started";
  beforeAll(async () => {
    started = await startPostgres();
    if (typeof started === "string") console.warn(`skipping PostgreSQL cases: ${started}`);
  }, 120_000);
  afterAll(() => {
    if (typeof started !== "string") started.stop();
  });
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
