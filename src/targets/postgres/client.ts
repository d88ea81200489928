/**
 * A PostgreSQL session for a table target or its reader: connected within --timeout, in UTC, waiting at
 * most 10 s for another session's lock; and what it finds of a table in the schemas of its search path.
 */
import pg from "pg";
import type { FoundColumn } from "../table/shape";

/** As SQLite's busy timeout: a lock another session holds longer than this ends the run (exit 5). */
export const LOCK_TIMEOUT_SECONDS = 10;

export async function connectPostgres(url: string, connectTimeoutMs: number): Promise<pg.Client> {
  // A server that accepts and never answers would hold a cron run forever: --timeout bounds the connection.
  const client = new pg.Client({
    connectionString: url,
    application_name: "adreport",
    connectionTimeoutMillis: connectTimeoutMs,
  });
  // A connection lost between queries: the next query fails with it; no unhandled 'error' event.
  client.on("error", () => undefined);
  await client.connect();
  await client.query(`SET lock_timeout = '${LOCK_TIMEOUT_SECONDS}s'`);
  await client.query("SET TIME ZONE 'UTC'");
  return client;
}

/**
 * The table's exact name (it is created quoted: MyTable is not mytable) in the schemas of the search path,
 * the first one found, read from pg_class by a fresh snapshot: to_regclass may answer from a cache that
 * misses a table just committed by another run. Tables only (plain, partitioned, foreign): an index or a
 * view of that name is no table to fill.
 */
const FIRST_OF_NAME = `pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
  WHERE c.relname = $1 AND c.relkind IN ('r', 'p', 'f') AND n.nspname = ANY (current_schemas(false))
  ORDER BY array_position(current_schemas(false), n.nspname) LIMIT 1`;

export async function tableExists(client: pg.Client, table: string): Promise<boolean> {
  return (await client.query(`SELECT 1 FROM ${FIRST_OF_NAME}`, [table])).rows.length > 0;
}

/** Whether this session may alter the table: its owner's rights (a superuser's too); true while there is none. */
export async function mayAlterTable(client: pg.Client, table: string): Promise<boolean> {
  const found = await client.query(`SELECT pg_has_role(c.relowner, 'USAGE') AS owner FROM ${FIRST_OF_NAME}`, [table]);
  const row = found.rows[0] as { owner: boolean } | undefined;
  return row === undefined || row.owner;
}

/**
 * The table's columns and their declared types (format_type), as begin() finds it; undefined when missing.
 * One statement, so one snapshot: asked in two, a table another run committed in between was found with no
 * columns (a second account's run took the first's new adreport_loads for a foreign one).
 */
export async function tableColumns(client: pg.Client, table: string): Promise<FoundColumn[] | undefined> {
  const found = await client.query(
    `SELECT a.attname AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS type
       FROM (SELECT c.oid FROM ${FIRST_OF_NAME}) t
       LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = t.oid AND a.attnum > 0 AND NOT a.attisdropped
      ORDER BY a.attnum`,
    [table],
  );
  const rows = found.rows as Array<{ name: string | null; type: string | null }>;
  if (rows.length === 0) return undefined;
  return rows.filter((row): row is FoundColumn => row.name !== null);
}

const KINDS: Record<string, string> = {
  i: "an index",
  I: "an index",
  v: "a view",
  m: "a materialized view",
  S: "a sequence",
  c: "a type",
};

/**
 * What other than a table holds the name in the schema a new table goes to (the first of the search path):
 * tables, indexes, views and sequences share one namespace, so CREATE TABLE would fail on it.
 */
export async function nameHeldBy(client: pg.Client, name: string): Promise<string | undefined> {
  const found = await client.query(
    `SELECT c.relkind AS kind FROM pg_catalog.pg_class c
      WHERE c.relname = $1 AND c.relnamespace = current_schema()::regnamespace AND c.relkind NOT IN ('r', 'p', 'f')`,
    [name],
  );
  const kind = (found.rows[0] as { kind: string } | undefined)?.kind;
  return kind === undefined ? undefined : (KINDS[kind] ?? "another relation");
}
