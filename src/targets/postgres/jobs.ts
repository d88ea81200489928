/**
 * adreport_jobs in a PostgreSQL database (targets/table/jobs.ts), on a connection of its own held for the
 * run: a job's lock is a session advisory lock on it, so a host that dies, is killed or loses its network
 * lets go of it with its connection (no pid to guess, no lock to remove by hand). Who holds it is written
 * in the job's row with the holder's backend pid, and trusted only while that backend holds the lock.
 */
import type pg from "pg";
import { explainPostgresFailure } from "../../core/postgres-failure";
import { holderText, thisProcess } from "../../state/job-lock";
import { type Held, holderWords, JOBS_TABLE, type JobColumnUse, type JobSql, sqlJobTable } from "../table/jobs";
import { connectPostgres, tableColumns } from "./client";

/** The advisory locks' first key: `adrj`, so adreport's job locks meet no other program's second key alone. */
export const JOB_LOCK_CLASS = 0x6164726a;
const INSUFFICIENT_PRIVILEGE = "42501";
/** The server's keepalive on the lock's connection: a first probe after 60 s idle, then 6 every 10 s. */
const KEEPALIVES = [
  ["tcp_keepalives_idle", "60"],
  ["tcp_keepalives_interval", "10"],
  ["tcp_keepalives_count", "6"],
] as const;

/** `json`, not `jsonb`: the text is kept as written, so a day's metrics come back in the order they were fetched. */
const TYPES: Record<JobColumnUse, string> = {
  text: "text",
  json: "json",
  integer: "integer",
  time: "timestamp with time zone",
};

/** The second key: the job id's 31 low bits (an id is 8 hex digits); two ids sharing it only take turns. */
export function jobLockKey(id: string): number {
  return Number.parseInt(id, 16) & 0x7fffffff;
}

export async function postgresJobTable(url: string, shown: string, connectTimeoutMs: number) {
  const client: pg.Client = await connectPostgres(url, connectTimeoutMs);
  const me = thisProcess();
  // What pg_stat_activity shows of the holder, should its row not say (the holder's own words: `adreport 4242 on build-2`).
  await client.query("SELECT set_config('application_name', $1, false)", [
    `adreport ${me.pid} on ${me.host}`.slice(0, 63),
  ]);
  // A host cut off (no FIN ever comes) is noticed by the server within about 2 minutes, not the system's
  // default 2 hours of TCP keepalive: its session ends, and the job's lock with it.
  for (const [name, value] of KEEPALIVES) {
    await client.query("SELECT set_config($1, $2, false)", [name, value]).catch(() => undefined);
  }
  const role = ((await client.query("SELECT current_user AS role")).rows[0] as { role: string }).role;
  const query = async (text: string, params: ReadonlyArray<unknown>) =>
    (await client.query(text, [...params])).rows as Array<Record<string, unknown>>;
  const sql: JobSql = {
    where: shown,
    typeOf: (use) => TYPES[use],
    placeholder: (n) => `$${n}`,
    columns: () => tableColumns(client, JOBS_TABLE),
    query,
    json: (value) => value,
    async lock(id, record) {
      const key = jobLockKey(id);
      const path = `the lock of job ${id} in the table ${JOBS_TABLE} in ${shown}`;
      // A holder that lets go between the try and the look at who it is: tried again (a fleet's hosts
      // finishing and starting one account at the same moment), a few times.
      let holder: string | undefined;
      let taken: Array<Record<string, unknown>> = [];
      for (let tries = 0; tries < 3 && holder === undefined; tries += 1) {
        taken = await query("SELECT pg_try_advisory_lock($1, $2) AS ok", [JOB_LOCK_CLASS, key]);
        if (taken[0]?.ok === true) break;
        holder = await holderOf(id, key);
      }
      if (taken[0]?.ok === true) {
        const backend = ((await query("SELECT pg_backend_pid() AS pid", []))[0] as { pid: number }).pid;
        await record({
          by: holderText(me),
          since: new Date().toISOString(),
          session: backend,
        });
        return {
          ok: true,
          path,
          release: async () => {
            await record(undefined).catch(() => undefined);
            await query("SELECT pg_advisory_unlock($1, $2)", [JOB_LOCK_CLASS, key]).catch(() => undefined);
          },
        };
      }
      return { ok: false, path, holder: holder ?? "a session that has just let go of it", hint: BUSY_HINT };
    },
    createRefused(error) {
      if ((error as { code?: unknown }).code !== INSUFFICIENT_PRIVILEGE) return undefined;
      return [
        `role ${role} may not create tables there`,
        `as the database's owner, either let it: GRANT CREATE ON SCHEMA public TO ${role};`,
        `or make the table for it (docs/incremental.md gives the statement) and: GRANT SELECT, INSERT, UPDATE, DELETE ON ${JOBS_TABLE} TO ${role};`,
      ].join("\n");
    },
    useRefused(error) {
      if ((error as { code?: unknown }).code !== INSUFFICIENT_PRIVILEGE) return undefined;
      return [
        `role ${role} may not read and write it`,
        `as its owner: GRANT SELECT, INSERT, UPDATE, DELETE ON ${JOBS_TABLE} TO ${role};`,
      ].join("\n");
    },
    close: async () => {
      await client.end().catch(() => undefined);
    },
  };
  /** The holder as its row names it, while its backend holds the lock; else the session as PostgreSQL shows it. */
  async function holderOf(id: string, key: number): Promise<string | undefined> {
    const holders = await query(
      `SELECT l.pid, a.application_name, a.backend_start, a.client_addr::text AS addr FROM pg_catalog.pg_locks l
         LEFT JOIN pg_catalog.pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory' AND l.classid = $1::int::oid AND l.objid = $2::int::oid AND l.objsubid = 2
          AND l.granted AND l.database = (SELECT oid FROM pg_catalog.pg_database WHERE datname = current_database())`,
      [JOB_LOCK_CLASS, key],
    );
    const session = holders[0] as
      | { pid: number; application_name: string | null; backend_start: Date | null; addr: string | null }
      | undefined;
    if (session === undefined) return undefined;
    const rows = await query(`SELECT held_by, held_since, held_session FROM ${JOBS_TABLE} WHERE id = $1`, [id]);
    const row = rows[0] as { held_by: string | null; held_since: Date | null; held_session: number | null } | undefined;
    if (row?.held_by && Number(row.held_session) === session.pid)
      return holderWords({ by: row.held_by, since: row.held_since });
    // An adreport that has its lock but not yet its row: its session's name says it (`adreport 4242 on build-2`).
    const named = /^adreport (\d+) on (.+)$/.exec(session.application_name ?? "");
    const by = named
      ? holderText({ pid: Number(named[1]), host: named[2] as string })
      : session.application_name || `PostgreSQL session ${session.pid}${session.addr ? ` from ${session.addr}` : ""}`;
    return holderWords({ by, since: session.backend_start });
  }
  return sqlJobTable(sql);
}

const BUSY_HINT =
  "this run did nothing; the lock is PostgreSQL's: it goes when that run ends, or with its connection if its host dies or is cut off";

/** A failure of the job table's connection in words (as the table target says them). */
export const jobTableFailure = explainPostgresFailure;
export type { Held };
