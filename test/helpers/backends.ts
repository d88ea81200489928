/**
 * The two backends of `serve`, for tests that must hold on both: `describe.each(await testBackends())`.
 * SQLite gets a new file in a temporary folder, PostgreSQL a new database on the test run's one throwaway
 * cluster (test/helpers/postgres.ts). Where PostgreSQL cannot run, its cases are skipped
 * with the reason printed (`beforeEach(backend.skipUnavailable)`), or fail where ADREPORT_TEST_REQUIRE names
 * postgres.
 */
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { sharedPostgres } from "./postgres";
import { skipMissing } from "./required-tools";
import { tempDir, workerTempDir } from "./temp";

export interface TestBackend {
  name: "sqlite" | "postgres";
  /** A new empty place for a database: a file path, or the URL of an empty PostgreSQL database. */
  newDb(): Promise<string>;
  /** A database for a template, kept for the worker process's life (not the test file's). */
  newTemplate(): Promise<string>;
  /** A new database holding what `template` (from newTemplate) holds. */
  copyOf(template: string): Promise<string>;
  /** Why this backend cannot run here, or undefined. */
  unavailable: string | undefined;
  /** For beforeEach: skips the case, with the reason, where the backend cannot run (fails it if required). */
  skipUnavailable(context: { skip(note?: string): never }): void;
  /** PostgreSQL only: runs SQL as the cluster's superuser. */
  admin(): (sql: string) => Promise<unknown>;
}

let files = 0;

export function sqliteBackend(): TestBackend {
  return {
    name: "sqlite",
    newDb: async () => {
      files += 1;
      return join(tempDir(), `test-${files}.db`);
    },
    newTemplate: async () => {
      files += 1;
      return join(workerTempDir(), `template-${files}.db`);
    },
    copyOf: async (template) => {
      const copy = join(tempDir(), "test.db");
      copyFileSync(template, copy);
      return copy;
    },
    unavailable: undefined,
    skipUnavailable: () => undefined,
    admin: () => {
      throw new Error("SQLite has no administrator");
    },
  };
}

export async function postgresBackend(): Promise<TestBackend> {
  const started = sharedPostgres();
  const unavailable = typeof started === "string" ? started : undefined;
  return {
    name: "postgres",
    newDb: async () => {
      if (typeof started === "string") throw new Error(started);
      return await started.createDatabase();
    },
    // The cluster outlives every worker: a template there stays until the run ends.
    newTemplate: async () => {
      if (typeof started === "string") throw new Error(started);
      return await started.createDatabase();
    },
    copyOf: async (template) => {
      if (typeof started === "string") throw new Error(started);
      return await started.createDatabase(undefined, new URL(template).pathname.slice(1));
    },
    unavailable,
    skipUnavailable: (context) => {
      if (unavailable) skipMissing(context, "postgres", unavailable);
    },
    admin: () => {
      if (typeof started === "string") throw new Error(started);
      return (sql) => started.sql(sql);
    },
  };
}

/** Both backends, SQLite first. */
export async function testBackends(): Promise<TestBackend[]> {
  return [sqliteBackend(), await postgresBackend()];
}

/** The first column of the first row of `sql` on either backend (a count, a sum), as a number. */
export async function sqlNumber(db: string, sql: string): Promise<number> {
  if (/^postgres(ql)?:\/\//.test(db)) {
    const client = new pg.Client({ connectionString: db });
    await client.connect();
    try {
      const row = (await client.query(sql)).rows[0] as Record<string, unknown>;
      return Number(Object.values(row)[0]);
    } finally {
      await client.end();
    }
  }
  const file = new Database(db, { readonly: true });
  try {
    return Number(file.prepare(sql).pluck().get());
  } finally {
    file.close();
  }
}
