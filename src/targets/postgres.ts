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
import { quoteName, type TableLayout } from "./table-columns";
import type { TableEngine, TableInserter } from "./table-engine";

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
  const name = quoteName(table);
  let open = false;
  let pendingIndex = false;
  return {
    description: `the table ${table} in ${shownUrl}`,
    async begin(layout: TableLayout) {
      await client.query("SET TIME ZONE 'UTC'");
      await client.query("BEGIN");
      open = true;
      // Two runs replacing the same days' rows at once (overlapping cron lines, two hosts): the second waits for
      // the first's commit, or its delete would miss the rows the first inserts and the days would be doubled.
      await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [
        `adreport:${table}#${layout.profile}#${layout.scope}`,
      ]);
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
      // Several runs (accounts) may find it missing at once: one creates it, the others wait for its commit.
      await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`adreport:${table}`]);
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
      await client.query(
        `DELETE FROM ${name} WHERE profile = $1 AND query_scope = $2 AND "date" >= $3::date AND "date" < $4::date + 1`,
        [layout.profile, layout.scope, from, to],
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
