/**
 * The read-only connection `serve` answers from, kept true to the file on disk: looked at no more often
 * than FRESHNESS_MS, reopened when the path names another file, and after a failure reopened with backoff
 * while callers are told the database is unavailable (503, docs/service.md §5).
 */
import { statSync } from "node:fs";
import { LRUCache } from "lru-cache";
import { DatabaseError, DatabaseUnavailableError } from "../model/errors";
import { SERVE_SQL } from "../sql/key-sql";
import { FRESHNESS_MS, type StoredKey } from "../store/types";
import type { Db } from "./open";

type Statement<P extends unknown[] = unknown[], R = unknown> = import("better-sqlite3").Statement<P, R>;

/** Waits between attempts to reopen a database that failed: short at first, doubling up to the last. */
const REOPEN_BACKOFF_MS = [100, 200, 400, 800, 1600, 3200, 5000] as const;

/**
 * Report statements kept prepared; their text varies with the shape of the query only (entity, granularity,
 * metrics, filters, how the range splits), and each holds its compiled program in memory outside --cache-mb.
 */
export const PREPARED_REPORT_STATEMENTS = 64;

function preparedStatements(db: Db) {
  return {
    dataVersion: db.prepare("PRAGMA data_version").pluck(),
    key: db.prepare<[{ hash: string }], StoredKey>(SERVE_SQL.key),
    ips: db.prepare<[{ id: number }], { ip: string }>(SERVE_SQL.ips),
    campaign: db.prepare<[{ id: number }], { advertiserId: number }>(SERVE_SQL.campaignAdvertiser),
    ad: db.prepare<[{ id: number }], { advertiserId: number }>(SERVE_SQL.adAdvertiser),
  };
}

export interface Connection {
  db: Db;
  /** The file's device, inode, size and modification time when it was opened. */
  identity: string;
  version: unknown;
  stmt: ReturnType<typeof preparedStatements>;
  /** Prepared report statements by SQL text. */
  reportStatements: LRUCache<string, Statement>;
}

export interface LiveConnectionOptions {
  /** A monotonic clock in milliseconds. */
  nowMs: () => number;
  /** Receives a line when the database is reopened or fails. */
  log?: ((line: string) => void) | undefined;
  /** Called whenever what was read from the database may no longer hold: its data changed, or it closed. */
  forget: () => void;
}

/** What tells one file on disk from another, or from itself changed: `mv new.db db` gives a new inode. */
function fileIdentity(path: string): string {
  const s = statSync(path, { bigint: true });
  return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}`;
}

/** An error of the file under us (SQLite's, a missing or foreign file), not of the caller's request. */
function isDatabaseFailure(error: unknown): boolean {
  if (error instanceof DatabaseError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && (code.startsWith("SQLITE_") || code === "ENOENT");
}

export class LiveConnection {
  private conn: Connection | undefined;
  private checkedAt: number;
  private failures = 0;
  private retryAt = 0;

  /** Opens the database at once: a file that cannot be served fails here, before anything listens. */
  constructor(
    private readonly path: string,
    private readonly open: (path: string) => Db,
    private readonly options: LiveConnectionOptions,
  ) {
    this.conn = this.connect();
    this.checkedAt = options.nowMs();
  }

  /** Runs `work` on the connection; a database failure closes it and answers "unavailable" meanwhile. */
  use<T>(work: (c: Connection) => T): T {
    const c = this.connection();
    try {
      return work(c);
    } catch (error) {
      if (isDatabaseFailure(error)) throw this.fail(error, this.options.nowMs());
      throw error;
    }
  }

  /**
   * Runs `work` in one read transaction, so all its statements read the same data; what was read before is
   * forgotten first when another connection changed the data (seen at once, not after FRESHNESS_MS).
   */
  snapshot<T>(work: (c: Connection) => T): T {
    return this.use((c) =>
      c.db.transaction(() => {
        const version = c.stmt.dataVersion.get();
        if (version !== c.version) {
          c.version = version;
          this.options.forget();
        }
        return work(c);
      })(),
    );
  }

  close(): void {
    this.options.forget();
    const db = this.conn?.db;
    this.conn = undefined;
    try {
      db?.close();
    } catch {
      // Closing a connection to a broken file may fail; it is let go either way.
    }
  }

  private connect(): Connection {
    // Looked at before opening, so a file renamed into place meanwhile is seen as a change at the next look;
    // a missing file is left to `open`, which says so in the operator's terms.
    let identity: string | undefined;
    try {
      identity = fileIdentity(this.path);
    } catch {
      identity = undefined;
    }
    const db = this.open(this.path);
    identity ??= fileIdentity(this.path);
    const stmt = preparedStatements(db);
    return {
      db,
      identity,
      version: stmt.dataVersion.get(),
      stmt,
      reportStatements: new LRUCache<string, Statement>({ max: PREPARED_REPORT_STATEMENTS }),
    };
  }

  /**
   * The open connection, checked at most every FRESHNESS_MS: reopened when the path now names another file
   * (or the file was rewritten), what was read forgotten when another connection changed the data.
   */
  private connection(): Connection {
    const now = this.options.nowMs();
    if (this.conn && now - this.checkedAt < FRESHNESS_MS) return this.conn;
    if (!this.conn && now < this.retryAt) throw this.unavailable(now);
    this.checkedAt = now;
    try {
      if (this.conn && fileIdentity(this.path) !== this.conn.identity) {
        this.options.log?.(`database ${this.path} changed on disk; reopening it`);
        this.close();
      }
      if (this.conn) {
        const version = this.conn.stmt.dataVersion.get();
        if (version !== this.conn.version) {
          this.conn.version = version;
          this.options.forget();
        }
        return this.conn;
      }
      this.conn = this.connect();
      if (this.failures > 0) this.options.log?.(`database ${this.path} reopened`);
      this.failures = 0;
      return this.conn;
    } catch (error) {
      throw this.fail(error, now);
    }
  }

  private fail(error: unknown, now: number): DatabaseUnavailableError {
    if (error instanceof DatabaseUnavailableError) return error;
    const wait = REOPEN_BACKOFF_MS[Math.min(this.failures, REOPEN_BACKOFF_MS.length - 1)] as number;
    this.failures += 1;
    this.retryAt = now + wait;
    if (this.failures === 1 || this.conn) {
      this.options.log?.(
        `database error: ${(error as Error).message}; reopening ${this.path} (answering 503 meanwhile)`,
      );
    }
    this.close();
    return this.unavailable(now);
  }

  private unavailable(now: number): DatabaseUnavailableError {
    const seconds = Math.max(1, Math.ceil((this.retryAt - now) / 1000));
    return new DatabaseUnavailableError("the database is being reopened; try again shortly", seconds);
  }
}
