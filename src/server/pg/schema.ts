/**
 * The layout of `serve` (sql/ddl.ts) in PostgreSQL, in the schema the connection's search_path names first:
 * created when asked, and refused when it is not an adreport layout of this version.
 */
import type pg from "pg";
import { SCHEMA_HINT } from "../../core/postgres-failure";
import { DatabaseError } from "../model/errors";
import { createStatements, tableNames } from "../sql/ddl";
import { POSTGRES_DIALECT } from "../sql/dialect";
import {
  NEW_SCHEMA_INFO,
  SCHEMA_INFO_SQL,
  type SchemaState,
  schemaState,
  upgradeStatements,
} from "../sql/schema-version";
import { schemaRefusal } from "../store/schema-refusal";
import type { UpgradeResult } from "../store/types";

/** The tables of the layout: a schema holding any of these but no schema_info is not ours to fill. */
const TABLES = tableNames(POSTGRES_DIALECT);

/** Every writer takes this transaction lock first, so two loads (or a load and a key issue) never interleave. */
export const WRITE_LOCK_SQL = "SELECT pg_advisory_xact_lock(1633972850)";
export const BUMP_VERSION_SQL = "UPDATE data_version SET version = version + 1 WHERE id = 1";

/** `empty`: none of adreport's tables is in the current schema, so they may be in another one (the hint). */
function notAdreportDatabase(label: string, advice = "create one with `adreport serve init`", empty = false) {
  return new DatabaseError(`${label} is not an adreport database (${advice})`, empty ? { hint: SCHEMA_HINT } : {});
}

async function ourTablesPresent(client: pg.ClientBase): Promise<string[]> {
  const result = await client.query<{ name: string }>(
    "SELECT relname AS name FROM pg_class WHERE relkind IN ('r', 'p', 'v', 'm') AND relnamespace = current_schema()::regnamespace AND relname = ANY($1)",
    [TABLES],
  );
  return result.rows.map((r) => r.name);
}

/** Creates the tables in the current schema unless they exist; refuses a schema holding tables of the same names. */
export async function createSchema(client: pg.ClientBase, label: string): Promise<void> {
  await client.query(WRITE_LOCK_SQL);
  const schema = (await client.query<{ s: string | null }>("SELECT current_schema() AS s")).rows[0]?.s;
  if (!schema) throw new DatabaseError(`${label}: no schema to create the tables in (check the role's search_path)`);
  const present = await ourTablesPresent(client);
  if (present.length === 0) {
    await client.query(createStatements(POSTGRES_DIALECT));
    for (const row of NEW_SCHEMA_INFO)
      await client.query("INSERT INTO schema_info (key, value) VALUES ($1, $2)", [...row]);
    await client.query("INSERT INTO data_version (id, version) VALUES (1, 0)");
    return;
  }
  await checkSchema(client, label, "adreport leaves it as it is; give --db another database or schema");
}

/** What the current schema holds: adreport's layout of some version, or not (`empty`: none of its tables). */
async function layoutOf(client: pg.ClientBase): Promise<SchemaState & { empty?: boolean }> {
  const present = await ourTablesPresent(client);
  if (!present.includes("schema_info") || !present.includes("data_version")) {
    return { kind: "foreign", empty: present.length === 0 };
  }
  return schemaState((await client.query<{ key: string; value: string }>(SCHEMA_INFO_SQL)).rows);
}

/** Refuses a database whose current schema does not hold the adreport layout of this version. */
export async function checkSchema(client: pg.ClientBase, label: string, advice?: string): Promise<void> {
  const state = await layoutOf(client);
  if (state.kind === "current") return;
  throw schemaRefusal(state, label) ?? notAdreportDatabase(label, advice, state.empty === true);
}

/**
 * Brings an older layout to this version in the caller's transaction, under the write lock (a load or a
 * second upgrade waits, then finds nothing to do); the data version moves, so every `serve` reading the
 * database drops what it computed before.
 */
export async function upgradeSchema(client: pg.ClientBase, label: string): Promise<UpgradeResult> {
  await client.query(WRITE_LOCK_SQL);
  const state = await layoutOf(client);
  if (state.kind === "current") return { upgraded: false };
  if (state.kind !== "older")
    throw schemaRefusal(state, label) ?? notAdreportDatabase(label, undefined, state.empty === true);
  for (const statement of upgradeStatements(state, POSTGRES_DIALECT)) await client.query(statement);
  await client.query(BUMP_VERSION_SQL);
  return { upgraded: true, from: state.version, missing: state.missing };
}
