/**
 * `--output postgres://USER@HOST:PORT/DB`: the table in a PostgreSQL database (node-postgres), filled in
 * one transaction by COPY ... FROM STDIN. Spending is NUMERIC(20,6) (exact; never a float), counts BIGINT,
 * dates DATE (TIMESTAMPTZ for hours). The session works in UTC. The table (and adreport_loads) is created
 * only when missing, so a role without CREATE can fill tables made for it beforehand.
 */
import type { Writable } from "node:stream";
import { finished } from "node:stream/promises";
import { from as copyFrom } from "pg-copy-streams";
import { UnavailableError } from "../../core/errors";
import { quoteName, type TableLayout } from "../table/columns";
import type { TableEngine, TableInserter } from "../table/engine";
import { LOADS_COLUMNS, LOADS_TABLE, loadValues, POSTGRES_LOADS_DDL } from "../table/loads";
import { BOOKKEEPING, DAYS_INDEX_COLUMNS, RUN_ID_COLUMN } from "../table/shape";
import { connectPostgres, LOCK_TIMEOUT_SECONDS, mayAlterTable, nameHeldBy, tableColumns, tableExists } from "./client";
import { postgresDialect } from "./dialect";

const LOCK_NOT_AVAILABLE = "55P03";
const INSUFFICIENT_PRIVILEGE = "42501";
/** adreport_loads' rows per INSERT: 10 parameters each, well below PostgreSQL's 65,535. */
const LOADS_BATCH = 1000;
const LOADS_CASTS = ["", "", "", "", "", "::date", "", "::jsonb", "", "::timestamptz"];

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
  const client = await connectPostgres(url, connectTimeoutMs);
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
    dialect: postgresDialect,
    columns: (of = table) => tableColumns(client, of),
    mayAlter: () => mayAlterTable(client, table),
    nameHeldBy: () => nameHeldBy(client, table),
    async begin(layout: TableLayout) {
      await client.query("BEGIN");
      open = true;
      // Two runs replacing the same days' rows at once (overlapping cron lines, two hosts): the second waits for
      // the first's commit, or its delete would miss the rows the first inserts and the days would be doubled.
      await mayWait(`another run replacing the same days of ${description}`, () =>
        client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [
          `adreport:${table}#${layout.profile}#${layout.scope}`,
        ]),
      );
      const exists = () => tableExists(client, table);
      if (await exists()) return;
      // Several runs (accounts) may find it missing at once: one creates it, the others wait for its commit,
      // which comes at the end of its whole run: this wait is not bounded by the lock timeout.
      await client.query("SET LOCAL lock_timeout = 0");
      await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`adreport:${table}`]);
      await client.query(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT_SECONDS}s'`);
      if (await exists()) return;
      const columns = [
        ...layout.columns.map((c) => `${quoteName(c.name)} ${postgresDialect.columnType(c.kind, layout.hourly)}`),
        ...BOOKKEEPING.map((c) => `${c.name} ${postgresDialect.columnType(c.use, layout.hourly)} NOT NULL`),
        `${RUN_ID_COLUMN} TEXT`,
      ];
      await client.query(`CREATE TABLE ${name} (${columns.join(", ")})`);
      // Its index is built at commit, once, from the rows in place.
      pendingIndex = true;
    },
    async addColumns(columns) {
      if (columns.length === 0) return [];
      // Runs of other accounts or scopes that find the same columns missing: one adds them, the others wait
      // for its commit (as for creating the table), then find them there and add nothing.
      await client.query("SET LOCAL lock_timeout = 0");
      await mayWait(`another run adding columns to ${description}`, () =>
        client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`adreport:${table}#columns`]),
      );
      await client.query(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT_SECONDS}s'`);
      const present = new Set(((await tableColumns(client, table)) ?? []).map((c) => c.name));
      const missing = columns.filter((c) => !present.has(c.name));
      if (missing.length === 0) return [];
      const adds = missing.map((c) => `ADD COLUMN ${quoteName(c.name)} ${c.type}`);
      await mayWait(`a lock on ${description} held by another session (to add a column)`, () =>
        client.query(`ALTER TABLE ${name} ${adds.join(", ")}`),
      );
      return missing.map((c) => c.name);
    },
    async deleteDays(layout: TableLayout, from: string, to: string) {
      await mayWait(`a lock on ${description} held by another session`, () =>
        client.query(
          `DELETE FROM ${name} WHERE profile = $1 AND query_scope = $2 AND "date" >= $3::date AND "date" < $4::date + 1`,
          [layout.profile, layout.scope, from, to],
        ),
      );
    },
    async startInsert(layout: TableLayout, exportedAt: Date, runId: string | undefined): Promise<TableInserter> {
      const names = [...layout.columns.map((c) => quoteName(c.name)), ...BOOKKEEPING.map((c) => c.name)];
      if (runId !== undefined) names.push(RUN_ID_COLUMN);
      const stream = client.query(copyFrom(`COPY ${name} (${names.join(", ")}) FROM STDIN (FORMAT csv)`));
      let failure: Error | undefined;
      stream.on("error", (error: Error) => {
        failure ??= error;
      });
      const run = runId === undefined ? "" : `,${field(runId)}`;
      const tail = `,${field(layout.profile)},${field(layout.scope)},${exportedAt.toISOString()}${run}\n`;
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
    async writeLoads(of, loads) {
      if (!(await tableExists(client, LOADS_TABLE))) {
        // A role that may not create tables: the run goes on without it (the caller says so).
        await client.query("SAVEPOINT adreport_loads");
        try {
          await mayWait(`another run creating ${LOADS_TABLE}`, () =>
            client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`adreport:${LOADS_TABLE}`]),
          );
          if (!(await tableExists(client, LOADS_TABLE))) await client.query(POSTGRES_LOADS_DDL);
          await client.query("RELEASE SAVEPOINT adreport_loads");
        } catch (error) {
          if ((error as { code?: unknown }).code !== INSUFFICIENT_PRIVILEGE) throw error;
          await client.query("ROLLBACK TO SAVEPOINT adreport_loads");
          return false;
        }
      }
      const rows = loadValues(of, loads);
      const width = LOADS_COLUMNS.length;
      for (let i = 0; i < rows.length; i += LOADS_BATCH) {
        const batch = rows.slice(i, i + LOADS_BATCH);
        const tuples = batch.map(
          (_, r) => `(${LOADS_COLUMNS.map((_c, k) => `$${r * width + k + 1}${LOADS_CASTS[k]}`).join(", ")})`,
        );
        await client.query(
          `INSERT INTO ${LOADS_TABLE} (${LOADS_COLUMNS.join(", ")}) VALUES ${tuples.join(", ")}`,
          batch.flat(),
        );
      }
      return true;
    },
    async commit() {
      if (pendingIndex) {
        // Unnamed: PostgreSQL picks a name no relation holds (TABLE_profile_query_scope_date_idx, a number added
        // when taken), so the index a renamed table kept under this table's name cannot block it.
        await client.query(`CREATE INDEX ON ${name} (${DAYS_INDEX_COLUMNS})`);
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
