/**
 * `adreport_jobs`, beside the data in the target's database: one row per incremental job, its state and
 * last run as JSON, so a run in a fresh container finds them where the data is. Shared by the table kinds,
 * each giving its SQL runner (JobSql: its driver, its placeholders, its JSON and time types, its lock); a
 * new kind (DuckDB) offers it with a runner. The table is made on first write; one found otherwise than
 * adreport makes it (altered by hand, or another program's of that name) is refused, exit 2, untouched.
 */
import { AdreportError, OutputError, UnavailableError, UsageError } from "../../core/errors";
import { printable } from "../../core/printable";
import { shellWord } from "../../core/shell-word";
import type { LockResult } from "../../state/job-lock";
import type { JobDatabase, JobRow, JobTable } from "../../state/job-table";
import type { FailureWords } from "./failure";
import type { FoundColumn } from "./shape";

export const JOBS_TABLE = "adreport_jobs";
/** The rows' format: a row written by a later adreport in another one is refused, not misread. */
export const JOBS_FORMAT = 1;

/** The columns, in order: `held_*` say who holds the job's lock (the lock itself is the database's). */
const COLUMNS = [
  ["id", "text"],
  ["target", "text"],
  ["state", "json"],
  ["last_run", "json"],
  ["format", "integer"],
  ["updated_at", "time"],
  ["held_by", "text"],
  ["held_since", "time"],
  ["held_session", "integer"],
] as const;

export type JobColumnUse = (typeof COLUMNS)[number][1];

/** What a table kind gives the shared table: its driver's statements and its lock. */
export interface JobSql {
  /** The database in messages (`sqlite:/d/ads.db`, the URL without its password). */
  readonly where: string;
  /** Its type for a column's use (`JSONB`, `TEXT`). */
  typeOf(use: JobColumnUse): string;
  /** The `n`th placeholder (1-based): `?` or `$n`. */
  placeholder(n: number): string;
  /** The table's columns, undefined when there is none. */
  columns(): Promise<FoundColumn[] | undefined>;
  query(sql: string, params: ReadonlyArray<unknown>): Promise<Array<Record<string, unknown>>>;
  /** A JSON column's value as read (text in SQLite, parsed in PostgreSQL) made a value. */
  json(value: unknown): unknown;
  /** The job's lock, refused at once when another holds it. */
  lock(
    id: string,
    record: (held: Held | undefined) => Promise<void>,
  ): Promise<LockResult & { path: string; hint?: string }>;
  /** A statement refused for want of rights to create the table: the reason and the grants to name (lines). */
  createRefused(error: unknown): string | undefined;
  /** A statement refused for want of rights on the table (made by another role): the reason and the grants. */
  useRefused(error: unknown): string | undefined;
  close(): Promise<void>;
}

export interface Held {
  by: string;
  since: string;
  session: number | null;
}

export const JOBS_DDL = (sql: Pick<JobSql, "typeOf">) =>
  `CREATE TABLE ${JOBS_TABLE} (${COLUMNS.map(([name, use]) => `${name} ${sql.typeOf(use)}${name === "id" ? " PRIMARY KEY" : ["target", "format", "updated_at"].includes(name) ? " NOT NULL" : ""}`).join(", ")})`;

/** The table as adreport makes it: these columns, in this order, of these types (the kind's words). */
function checkShape(sql: JobSql, found: FoundColumn[]): void {
  const expected = COLUMNS.map(([name, use]) => `${name} ${sql.typeOf(use)}`.toLowerCase());
  const present = found.map((c) => `${c.name} ${c.type}`.toLowerCase());
  if (expected.join(",") === present.join(",")) return;
  const missing = expected.filter((c) => !present.includes(c));
  const extra = present.filter((c) => !expected.includes(c));
  const what = [...missing.map((c) => `no column ${c}`), ...extra.map((c) => `a column ${c} adreport does not make`)];
  throw new UsageError(
    `the table ${JOBS_TABLE} in ${sql.where} is not as adreport makes it (${what.length > 0 ? what.join(", ") : "its columns in another order"}): it keeps the state of the incremental jobs writing there; nothing was written`,
    {
      hint: "if it was altered by hand, make it again as docs/incremental.md gives it (the data stays); if another program owns the name, give this job --state-file to keep its state in a file",
    },
  );
}

export function sqlJobTable(given: JobSql): JobTable {
  const sql: JobSql = {
    ...given,
    async query(text, params) {
      try {
        return await given.query(text, params);
      } catch (error) {
        const grants = given.useRefused(error);
        if (grants === undefined) throw error;
        throw new UsageError(`cannot use the table ${JOBS_TABLE} in ${given.where}: ${grants.split("\n")[0]}`, {
          hint: grants.split("\n").slice(1).join(" "),
        });
      }
    },
  };
  const p = (n: number) => sql.placeholder(n);
  let checked: "none" | "there" | "missing" | undefined;
  /** Whether the table is there (its shape checked once); made when `make` and missing. */
  const present = async (make: boolean): Promise<boolean> => {
    if (checked === "there") return true;
    const found = await sql.columns();
    if (found !== undefined) {
      checkShape(sql, found);
      checked = "there";
      return true;
    }
    if (!make) return false;
    try {
      await given.query(JOBS_DDL(sql), []);
    } catch (error) {
      const grants = sql.createRefused(error);
      if (grants === undefined) {
        // Another run made it meanwhile: its shape is read again.
        if ((await sql.columns()) === undefined) throw error;
      } else {
        throw new UsageError(`cannot create the table ${JOBS_TABLE} in ${sql.where}: ${grants.split("\n")[0]}`, {
          hint: grants.split("\n").slice(1).join(" "),
        });
      }
    }
    return present(false);
  };
  const rowOf = (row: Record<string, unknown>): JobRow => {
    const format = Number(row.format);
    if (format !== JOBS_FORMAT) {
      throw new UsageError(
        `the row of job ${String(row.id)} in ${JOBS_TABLE} of ${sql.where} is in format ${String(row.format)}, which this adreport does not read (a later adreport wrote it)`,
        { hint: "run the adreport that wrote it, or a later one" },
      );
    }
    try {
      return { id: String(row.id), state: sql.json(row.state), lastRun: sql.json(row.last_run) };
    } catch {
      throw new UsageError(
        `the row of job ${String(row.id)} in ${JOBS_TABLE} of ${sql.where} holds no JSON: edited by hand or by another program`,
        {
          hint: `forget it to start the job again from --start: adreport state reset ${String(row.id)} --target ${shellWord(sql.where)}`,
        },
      );
    }
  };
  const SELECT = `SELECT id, state, last_run, format FROM ${JOBS_TABLE}`;
  const upsert = async (id: string, target: string, column: "state" | "last_run", value: unknown) => {
    await present(true);
    const now = new Date().toISOString();
    await sql.query(
      `INSERT INTO ${JOBS_TABLE} (id, target, ${column}, format, updated_at) VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${JOBS_FORMAT}, ${p(4)})
       ON CONFLICT (id) DO UPDATE SET ${column} = excluded.${column}, format = excluded.format, updated_at = excluded.updated_at${column === "state" ? ", target = excluded.target" : ""}`,
      [id, target, JSON.stringify(value), now],
    );
  };
  return {
    async get(id) {
      if (!(await present(false))) return undefined;
      const rows = await sql.query(`${SELECT} WHERE id = ${p(1)}`, [id]);
      return rows[0] === undefined ? undefined : rowOf(rows[0]);
    },
    async all(target) {
      if (!(await present(false))) return [];
      // A database many jobs write (a fleet's accounts): only the target's rows are read whole.
      const where = target === undefined ? "" : ` WHERE target = ${p(1)}`;
      return (await sql.query(`${SELECT}${where} ORDER BY id`, target === undefined ? [] : [target])).map(rowOf);
    },
    putState: (id, target, state) => upsert(id, target, "state", state),
    putLastRun: (id, target, run) => upsert(id, target, "last_run", run),
    async remove(id) {
      if (!(await present(false))) return false;
      const gone = await sql.query(`DELETE FROM ${JOBS_TABLE} WHERE id = ${p(1)} RETURNING id`, [id]);
      return gone.length > 0;
    },
    async lock(id) {
      await present(true);
      return sql.lock(id, async (held) => {
        await sql.query(
          `INSERT INTO ${JOBS_TABLE} (id, target, format, updated_at, held_by, held_since, held_session)
           VALUES (${p(1)}, '', ${JOBS_FORMAT}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)})
           ON CONFLICT (id) DO UPDATE SET held_by = excluded.held_by, held_since = excluded.held_since, held_session = excluded.held_session`,
          [id, new Date().toISOString(), held?.by ?? null, held?.since ?? null, held?.session ?? null],
        );
      });
    },
    close: () => sql.close(),
  };
}

/** Who holds a lock, in the words of a refusal: `4242 on "host-b" since 2026-11-29 06:00:02 UTC`. */
export function holderWords(held: { by: string; since: string | Date | null }): string {
  const since = held.since === null ? "" : new Date(held.since).toISOString().replace("T", " ").slice(0, 19);
  return since === "" ? held.by : `${held.by} since ${since} UTC`;
}

/**
 * A kind's job table as a job store opens it: every failure of its driver said in one line naming the
 * database, exit 5 when the server (or the way to it) went away (nothing is half-written: a state is one
 * statement; the next run continues from the last state written), else exit 1.
 */
export function jobDatabase(database: string, words: FailureWords, open: () => Promise<JobTable>): JobDatabase {
  const where = `the table ${JOBS_TABLE} in ${printable(database)}`;
  const failed = (error: unknown, reached: boolean): Error => {
    if (error instanceof AdreportError) return error;
    const { reason, hint, unreachable } = words(error);
    // Lost once reached (stopped, restarted, cut off mid-run): exit 5, as the table's writer says it.
    if (reached && unreachable === true) {
      return new UnavailableError(`lost ${where}: ${reason}`, {
        hint: "the windows recorded so far are in place; the next run continues from the last one",
        cause: error,
      });
    }
    return new OutputError(`cannot use ${where}: ${reason}`, {
      ...(hint ? { hint } : {}),
      cause: error,
    });
  };
  const guard =
    <A extends unknown[], R>(work: (...args: A) => Promise<R>, reached = true) =>
    async (...args: A): Promise<R> => {
      try {
        return await work(...args);
      } catch (error) {
        throw failed(error, reached);
      }
    };
  return {
    where,
    database,
    async open() {
      const table = await guard(open, false)();
      return {
        get: guard(table.get),
        all: guard(table.all),
        putState: guard(table.putState),
        putLastRun: guard(table.putLastRun),
        remove: guard(table.remove),
        lock: guard(table.lock),
        close: table.close,
      };
    },
  };
}
