/**
 * `--output postgres://USER@HOST:PORT/DB`: the table in a PostgreSQL database (node-postgres), filled in
 * one transaction by COPY ... FROM STDIN. Spending is NUMERIC(20,6) (exact; never a float), counts BIGINT,
 * dates DATE (TIMESTAMPTZ for hours). The session works in UTC. The table is created only when missing, so
 * a role without CREATE can fill a table made for it beforehand.
 */
import type { Writable } from "node:stream";
import { finished } from "node:stream/promises";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { UnavailableError } from "../core/errors";
import { quoteName, type TableLayout } from "./table-columns";
import type { TableEngine, TableInserter } from "./table-engine";

/** As SQLite's busy timeout: a lock another session holds longer than this ends the run (exit 5). */
const LOCK_TIMEOUT_SECONDS = 10;
const LOCK_NOT_AVAILABLE = "55P03";

function pgType(kind: TableLayout["columns"][number]["kind"], hourly: boolean): string {
  switch (kind) {
    case "id":
    case "count":
      return "BIGINT";
    case "money":
      return "NUMERIC(20,6)";
    case "date":
      return hourly ? "TIMESTAMPTZ" : "DATE";
    case "text":
      return "TEXT";
  }
}

/** One CSV field for COPY: NULL unquoted and empty, text always quoted (a NUL, which PostgreSQL text cannot hold, becomes U+FFFD). */
function field(value: string | number | null): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  return `"${value.replaceAll("\u0000", "\uFFFD").replaceAll('"', '""')}"`;
}

/** Waits for the stream to take more, or to fail; no listener is left behind either way. */
function drained(stream: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off("drain", done);
      stream.off("error", done);
      stream.off("close", done);
      resolve();
    };
    stream.on("drain", done);
    stream.on("error", done);
    stream.on("close", done);
  });
}

export async function postgresEngine(
  url: string,
  shownUrl: string,
  table: string,
  connectTimeoutMs: number,
): Promise<TableEngine> {
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
  const name = quoteName(table);
  const description = `the table ${table} in ${shownUrl}`;
  let open = false;
  let pendingIndex = false;
  let waiting: { what: string; since: number } | undefined;
  /** A statement that may wait for another session's lock: what it waits for is known, and said. */
  const mayWait = async <T>(what: string, work: () => Promise<T>): Promise<T> => {
    waiting = { what, since: Date.now() };
    try {
      return await work();
    } catch (error) {
      if ((error as { code?: unknown }).code !== LOCK_NOT_AVAILABLE) throw error;
      throw new UnavailableError(`waited ${LOCK_TIMEOUT_SECONDS} s for ${what}; the table was left as it was`, {
        hint: "another session holds it (a long transaction: see pg_stat_activity); the next run tries again",
      });
    } finally {
      waiting = undefined;
    }
  };
  return {
    description,
    waiting() {
      if (waiting === undefined) return undefined;
      return `waited ${((Date.now() - waiting.since) / 1000).toFixed(1)} s for ${waiting.what}`;
    },
    async columns() {
      // The first table of that exact name in the search path, as begin() finds it.
      const found = await client.query(
        `SELECT a.attname AS name, n.nspname AS schema FROM pg_catalog.pg_class c
           JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
           JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
         WHERE c.relname = $1 AND n.nspname = ANY (current_schemas(false))
         ORDER BY array_position(current_schemas(false), n.nspname), a.attnum`,
        [table],
      );
      const rows = found.rows as Array<{ name: string; schema: string }>;
      if (rows.length === 0) return undefined;
      const schema = rows[0]?.schema;
      return rows.filter((row) => row.schema === schema).map((row) => row.name);
    },
    async begin(layout: TableLayout) {
      await client.query("SET TIME ZONE 'UTC'");
      await client.query("BEGIN");
      open = true;
      // Two runs replacing the same days' rows at once (overlapping cron lines, two hosts): the second waits for
      // the first's commit, or its delete would miss the rows the first inserts and the days would be doubled.
      await mayWait(`another run replacing the same days of ${description}`, () =>
        client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [
          `adreport:${table}#${layout.profile}#${layout.scope}`,
        ]),
      );
      // The table's exact name (it is created quoted: MyTable is not mytable) in the schemas of the search path,
      // read from pg_class by a fresh snapshot: to_regclass may answer from a cache that misses a table just
      // committed by another run.
      const exists = async () =>
        (
          await client.query(
            "SELECT 1 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE c.relname = $1 AND n.nspname = ANY (current_schemas(false))",
            [table],
          )
        ).rows.length > 0;
      if (await exists()) return;
      // Several runs (accounts) may find it missing at once: one creates it, the others wait for its commit,
      // which comes at the end of its whole run: this wait is not bounded by the lock timeout.
      await client.query("SET LOCAL lock_timeout = 0");
      await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`adreport:${table}`]);
      await client.query(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT_SECONDS}s'`);
      if (await exists()) return;
      const columns = [
        ...layout.columns.map((c) => `${quoteName(c.name)} ${pgType(c.kind, layout.hourly)}`),
        "profile TEXT NOT NULL",
        "query_scope TEXT NOT NULL",
        "exported_at TIMESTAMPTZ NOT NULL",
      ];
      await client.query(`CREATE TABLE ${name} (${columns.join(", ")})`);
      // Its index is built at commit, once, from the rows in place.
      pendingIndex = true;
    },
    async deleteDays(layout: TableLayout, from: string, to: string) {
      await mayWait(`a lock on ${description} held by another session`, () =>
        client.query(
          `DELETE FROM ${name} WHERE profile = $1 AND query_scope = $2 AND "date" >= $3::date AND "date" < $4::date + 1`,
          [layout.profile, layout.scope, from, to],
        ),
      );
    },
    async startInsert(layout: TableLayout, exportedAt: Date): Promise<TableInserter> {
      const names = [...layout.columns.map((c) => quoteName(c.name)), "profile", "query_scope", "exported_at"];
      const stream = client.query(copyFrom(`COPY ${name} (${names.join(", ")}) FROM STDIN (FORMAT csv)`));
      let failure: Error | undefined;
      stream.on("error", (error: Error) => {
        failure ??= error;
      });
      const tail = `,${field(layout.profile)},${field(layout.scope)},${exportedAt.toISOString()}\n`;
      return {
        async write(rows) {
          if (failure) throw failure;
          let chunk = "";
          for (const row of rows) chunk += row.map(field).join(",") + tail;
          if (!stream.write(chunk)) await drained(stream);
          if (failure) throw failure;
        },
        async end() {
          stream.end();
          await finished(stream);
          if (failure) throw failure;
        },
      };
    },
    async commit() {
      if (pendingIndex) {
        await client.query(`CREATE INDEX ${quoteName(`${table}_days`)} ON ${name} (profile, query_scope, "date")`);
        pendingIndex = false;
      }
      await client.query("COMMIT");
      open = false;
    },
    async rollback() {
      if (open) await client.query("ROLLBACK").catch(() => undefined);
      open = false;
      pendingIndex = false;
    },
    abortNow() {
      // The server rolls the transaction back when the connection goes; a waiting statement fails at once.
      client.end().catch(() => undefined);
    },
    async close() {
      if (open) await client.query("ROLLBACK").catch(() => undefined);
      open = false;
      await client.end().catch(() => undefined);
    },
  };
}
