/**
 * `serve`'s PostgreSQL backend: the statements of a read, over a pool, after a look at data_version (bumped
 * by every write, from any process) at most every FRESHNESS_MS, one look shared by the requests waiting for
 * it. A report's statements each say which data version they read (report-reader.ts), so the cache policy
 * (store/serve-store.ts) can tell a page read from other data than its map.
 */
import type pg from "pg";
import { databaseLabel } from "../../core/database-label";
import { DatabaseUnavailableError } from "../model/errors";
import { numbered, type SqlParams } from "../sql/dialect";
import { SERVE_SQL } from "../sql/key-sql";
import type { ServeBackend, ServeReads } from "../store/backend";
import { runAsync, type Steps } from "../store/steps";
import { FRESHNESS_MS, type StoredKey } from "../store/types";
import { createPool, databaseFailure, inTransaction } from "./pool";
import { computeReport, readPage } from "./report-reader";
import { checkSchema } from "./schema";

export interface PostgresBackendOptions {
  /** Connections to the database at most. */
  poolSize: number;
  nowMs?: (() => number) | undefined;
  log?: ((line: string) => void) | undefined;
}

/** A report statement running longer is cancelled and answered 503: a caller waits no longer than this. */
const STATEMENT_TIMEOUT_MS = 300_000;
const CONNECT_TIMEOUT_MS = 5_000;
/** After the database failed, requests are answered 503 at once for this long, not each left to wait for it. */
const DOWN_MS = 1_000;

export class PostgresServeBackend implements ServeBackend {
  private version: number | undefined;
  private checkedAt = Number.NEGATIVE_INFINITY;
  private checking: Promise<void> | undefined;
  /** Until then (nowMs), the database is taken as down. */
  private downUntil = Number.NEGATIVE_INFINITY;
  private readonly nowMs: () => number;
  private readonly reads: ServeReads;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly label: string,
    private readonly options: PostgresBackendOptions,
    private readonly forget: () => void,
  ) {
    this.nowMs = options.nowMs ?? (() => performance.now());
    const one = async (sql: string, params: SqlParams) => (await this.query<{ advertiserId: number }>(sql, params))[0];
    this.reads = {
      key: async (hash) => (await this.query<StoredKey>(SERVE_SQL.key, { hash }))[0],
      keyIps: async (id) => (await this.query<{ ip: string }>(SERVE_SQL.ips, { id })).map((r) => r.ip),
      campaignAdvertiser: async (id) => (await one(SERVE_SQL.campaignAdvertiser, { id }))?.advertiserId,
      adAdvertiser: async (id) => (await one(SERVE_SQL.adAdvertiser, { id }))?.advertiserId,
      computeReport: (query, advertiserId) => computeReport(pool, query, advertiserId),
      readPage: (query, advertiserId, span, count) => readPage(pool, query, advertiserId, span, count),
      versionSeen: (version) => {
        this.version = version;
      },
    };
  }

  /** Connects and checks the layout at once: a database that cannot be served fails here, before anything listens. */
  static async open(url: string, options: PostgresBackendOptions, forget: () => void): Promise<PostgresServeBackend> {
    const label = databaseLabel(url);
    const pool = createPool(url, {
      max: options.poolSize,
      statementTimeoutMs: STATEMENT_TIMEOUT_MS,
      connectTimeoutMs: CONNECT_TIMEOUT_MS,
    });
    try {
      await inTransaction(pool, label, (client) => checkSchema(client, label));
    } catch (error) {
      await pool.end();
      throw error;
    }
    const backend = new PostgresServeBackend(pool, label, options, forget);
    await backend.fresh();
    return backend;
  }

  async read<T>(steps: (db: ServeReads) => Steps<T>): Promise<T> {
    await this.fresh();
    return await this.guard(() => runAsync(steps(this.reads)));
  }

  /** Each report statement reads its own snapshot and says its data version; the policy compares them. */
  async snapshot<T>(steps: (db: ServeReads) => Steps<T>): Promise<T> {
    return await this.read(steps);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  /** Reads data_version at most every FRESHNESS_MS; when another process wrote, forgets what was read. */
  private async fresh(): Promise<void> {
    const now = this.nowMs();
    if (now - this.checkedAt < FRESHNESS_MS) return;
    if (now < this.downUntil) {
      throw new DatabaseUnavailableError("the database cannot be used now; try again shortly", 1);
    }
    this.checking ??= (async () => {
      try {
        const rows = await this.guard(() =>
          this.query<{ version: number }>("SELECT version FROM data_version WHERE id = 1"),
        );
        const version = rows[0]?.version;
        if (version !== this.version) {
          this.version = version;
          this.forget();
        }
        this.checkedAt = this.nowMs();
      } finally {
        this.checking = undefined;
      }
    })();
    await this.checking;
  }

  private async query<R extends pg.QueryResultRow>(sql: string, params: SqlParams = {}): Promise<R[]> {
    return (await this.pool.query<R>(numbered(sql, params))).rows;
  }

  /** Runs work on the database; its failures become 503 (or, for a statement PostgreSQL cannot run, 500). */
  private async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      // A statement of ours PostgreSQL cannot run (syntax, data: classes 42 and 22, bar a missing right or a
      // table gone, as in a restore) is a bug and answered 500; anything else (down, busy, restarting,
      // refusing connections) is 503 until it passes, as SQLite answers a table gone.
      const code = (error as { code?: unknown }).code;
      if (typeof code === "string" && /^(42|22)/.test(code) && code !== "42501" && code !== "42P01") throw error;
      const failure = databaseFailure(error, this.label) as Error;
      // Keys may be revoked while the database is out of reach: nothing read before is trusted after.
      this.forget();
      this.version = undefined;
      this.checkedAt = Number.NEGATIVE_INFINITY;
      const now = this.nowMs();
      if (now >= this.downUntil) this.options.log?.(`database error: ${failure.message}; answering 503 meanwhile`);
      this.downUntil = now + DOWN_MS;
      throw new DatabaseUnavailableError("the database cannot be used now; try again shortly", 1);
    }
  }
}
