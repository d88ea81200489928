/**
 * `serve`'s SQLite backend: the statements of a read, run at once on a read-only connection kept true to
 * the file (live-connection.ts). The cache policy is store/serve-store.ts's.
 */
import type { ServeBackend, ServeReads } from "../store/backend";
import { runSync, type Steps } from "../store/steps";
import { type Connection, LiveConnection } from "./live-connection";
import type { Db } from "./open";
import { computeReport, readJoinedPage, readPage } from "./report-reader";

/** Each connection's reads, made once. */
const readsOf = new WeakMap<Connection, ServeReads>();

function reads(c: Connection): ServeReads {
  let made = readsOf.get(c);
  if (made) return made;
  made = {
    key: (hash) => c.stmt.key.get({ hash }),
    keyIps: (id) => c.stmt.ips.all({ id }).map((r) => r.ip),
    campaignAdvertiser: (id) => c.stmt.campaign.get({ id })?.advertiserId,
    adAdvertiser: (id) => c.stmt.ad.get({ id })?.advertiserId,
    computeReport: (query, advertiserId) => computeReport(c, query, advertiserId),
    readPage: (query, advertiserId, span, count) => ({ rows: readPage(c, query, advertiserId, span, count) }),
    readJoinedPage: (query, advertiserId, span, count) => readJoinedPage(c, query, advertiserId, span, count),
  };
  readsOf.set(c, made);
  return made;
}

export interface SqliteBackendOptions {
  /** A monotonic clock in milliseconds; tests pass their own. */
  nowMs?: (() => number) | undefined;
  /** Receives a line when the database is reopened or fails. */
  log?: ((line: string) => void) | undefined;
}

export class SqliteServeBackend implements ServeBackend {
  private readonly live: LiveConnection;

  /** Opens the database at once: a file that cannot be served fails here, before anything listens. */
  constructor(path: string, open: (path: string) => Db, options: SqliteBackendOptions, forget: () => void) {
    this.live = new LiveConnection(path, open, {
      nowMs: options.nowMs ?? (() => performance.now()),
      log: options.log,
      forget,
    });
  }

  read<T>(steps: (db: ServeReads) => Steps<T>): T {
    return this.live.use((c) => runSync(steps(reads(c))));
  }

  /** In one read transaction, after a look at the data's version, so a map and its page come from the same data. */
  snapshot<T>(steps: (db: ServeReads) => Steps<T>): T {
    return this.live.snapshot((c) => runSync(steps(reads(c))));
  }

  close(): void {
    this.live.close();
  }
}
