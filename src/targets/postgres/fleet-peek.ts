/**
 * A fleet's quick look at one job before a run opens anything for it (engine/days/job-taken.ts): whether
 * a live session holds its lock, and its last run, on one connection per database for every account of this
 * process. Only a look: a job found free is then locked as always (its own connection), and one found held
 * is tried again at the end of the run.
 */
import type pg from "pg";
import { holderText } from "../../state/job-lock";
import type { JobLook } from "../kind";
import { holderWords, JOBS_TABLE } from "../table/jobs";
import { connectPostgres } from "./client";
import { JOB_LOCK_CLASS, jobLockKey } from "./jobs";

const UNDEFINED_TABLE = "42P01";
const sessions = new Map<string, Promise<pg.Client | undefined>>();
/** Looks under way on each session: while any is, its socket keeps the process running. */
const looking = new Map<pg.Client, number>();

function sessionFor(url: string, connectTimeoutMs: number): Promise<pg.Client | undefined> {
  let session = sessions.get(url);
  if (session === undefined) {
    session = connectPostgres(url, connectTimeoutMs).then(
      (client) => {
        streamOf(client)?.unref?.(); // idle between looks, it must not keep the process from ending
        return client;
      },
      () => undefined,
    );
    sessions.set(url, session);
  }
  return session;
}

/** A holder that has its lock but not yet its row: its session's name says it (`adreport 4242 on build-2`). */
function sessionWords(pid: number, name: string | null): string {
  const named = /^adreport (\d+) on (.+)$/.exec(name ?? "");
  return named ? holderText({ pid: Number(named[1]), host: named[2] as string }) : `PostgreSQL session ${pid}`;
}

function streamOf(client: pg.Client): { ref?(): void; unref?(): void } | undefined {
  return (client as unknown as { connection?: { stream?: { ref?(): void; unref?(): void } } }).connection?.stream;
}

/** The look, or undefined when it cannot be had (the run then opens the job as always). */
export async function lookAtJob(url: string, id: string, connectTimeoutMs: number): Promise<JobLook | undefined> {
  const client = await sessionFor(url, connectTimeoutMs);
  if (client === undefined) return undefined;
  const under = looking.get(client) ?? 0;
  looking.set(client, under + 1);
  if (under === 0) streamOf(client)?.ref?.();
  try {
    const found = await client.query(
      `SELECT l.pid, a.application_name, j.held_by, j.held_since, j.held_session, j.last_run::text AS last_run
         FROM (SELECT 1) AS one
         LEFT JOIN pg_catalog.pg_locks l ON l.locktype = 'advisory' AND l.classid = $1::int::oid
          AND l.objid = $2::int::oid AND l.objsubid = 2 AND l.granted
          AND l.database = (SELECT oid FROM pg_catalog.pg_database WHERE datname = current_database())
         LEFT JOIN pg_catalog.pg_stat_activity a ON a.pid = l.pid
         LEFT JOIN ${JOBS_TABLE} j ON j.id = $3
        LIMIT 1`,
      [JOB_LOCK_CLASS, jobLockKey(id), id],
    );
    const row = found.rows[0] as
      | {
          pid: number | null;
          application_name: string | null;
          held_by: string | null;
          held_since: Date | null;
          held_session: number | null;
          last_run: string | null;
        }
      | undefined;
    if (row === undefined) return undefined;
    const holder =
      row.pid === null
        ? undefined
        : row.held_by !== null && Number(row.held_session) === row.pid
          ? holderWords({ by: row.held_by, since: row.held_since })
          : sessionWords(row.pid, row.application_name);
    return { holder, lastRun: row.last_run === null ? undefined : JSON.parse(row.last_run) };
  } catch (error) {
    if ((error as { code?: unknown }).code === UNDEFINED_TABLE) return { holder: undefined, lastRun: undefined };
    return undefined;
  } finally {
    const left = (looking.get(client) ?? 1) - 1;
    looking.set(client, left);
    if (left === 0) streamOf(client)?.unref?.();
  }
}
