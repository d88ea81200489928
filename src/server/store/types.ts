/**
 * The two sides of a `serve` database, whatever holds it: what `serve` reads while answering (ServeStore)
 * and what the operator verbs write (OperatorStore). One implementation of each (serve-store.ts,
 * operator.ts) over a SQLite (a file path) or PostgreSQL (a postgres:// URL) backend; the HTTP layer and the
 * commands see only these.
 */
import type { ReportQuery } from "../../contract";
import type { LoadLine } from "../model/facts";
import type { Whitelist } from "../model/ip";
import type { ClockMove, ClockTarget, ModelStatus, SeedRequest } from "../restate/restate-rules";
import type { IssuedKey, IssueRequest, KeyListing } from "./key-rules";
import type { Awaitable } from "./steps";

export type { Awaitable };

/**
 * How long a look at the database is trusted. Keys, whitelists and reports are served from memory and the
 * database is looked at (SQLite: the file's identity on disk and its data version; PostgreSQL: its
 * data_version row) at most this often: a key revoked, data loaded or a new file renamed into place while
 * serving takes effect within this time.
 */
export const FRESHNESS_MS = 250;

/** A key as `serve` checks it (key-rules.ts). */
export interface StoredKey {
  id: number;
  advertiserId: number;
  expiresAt: number | null;
  revokedAt: number | null;
}

/** One page of a report: the rows' JSON and the report's row count. */
export interface ReportPage {
  total: number;
  /** Each row's JSON, or all of them already joined by commas as UTF-8 (a page read whole from SQLite). */
  rows: string[] | Buffer;
}

export interface CacheUsage {
  bytes: number;
  budget: number;
  reports: number;
  pages: number;
  /** Rows held by reports kept whole (entity reports keep a page map, not rows). */
  reportRows: number;
  /** Reports computed since the start: a page read from a kept report computes none. */
  reportsComputed: number;
  /** Pages answered from a page read ahead of the request (store/read-ahead.ts). */
  pagesReadAhead: number;
}

/** The read side `serve` answers from. Everything read may be kept in memory until the data changes. */
export interface ServeStore {
  findKey(hash: string): Awaitable<StoredKey | undefined>;
  whitelist(keyId: number): Awaitable<Whitelist>;
  campaignAdvertiser(campaignId: number): Awaitable<number | undefined>;
  adAdvertiser(adId: number): Awaitable<number | undefined>;
  reportPage(query: ReportQuery, advertiserId: number, start: number, count: number): Awaitable<ReportPage>;
  /** A response body given before to this advertiser for this query, while the data is unchanged. */
  cachedPage(advertiserId: number, query: ReportQuery): Awaitable<Buffer | undefined>;
  rememberPage(advertiserId: number, query: ReportQuery, body: Buffer): void;
  cacheUsage(): CacheUsage;
  close(): Awaitable<void>;
}

/** A fact to write, with the line of its file (or its position in a generated stream) for error messages. */
export interface NumberedLine {
  line: LoadLine;
  at: number;
}

/**
 * Facts in batches, in order: a step of an async iterator per batch rather than per fact.
 */
export type FactBatches = Iterable<readonly NumberedLine[]> | AsyncIterable<readonly NumberedLine[]>;

/**
 * Facts per batch, for whoever makes them: small, so a batch dies young. At 1024, the parsed lines held
 * outlived V8's young generation (kept small, see cli/entry.ts) and doubled a load's garbage collection.
 */
export const FACT_BATCH = 64;

export interface WriteResult {
  adHours: number;
  keywordHours: number;
}

/** The write side the operator verbs use; every method is one transaction. */
/** What `serve upgrade` did: nothing, or from which version and with which counters added. */
export type UpgradeResult = { upgraded: false } | { upgraded: true; from: number; missing: string[] };

export interface OperatorStore {
  /** The database as it may be shown: a path, or a URL without its password. */
  readonly label: string;
  issueKey(request: IssueRequest): Promise<IssuedKey>;
  rotateKey(id: number, now: number): Promise<IssuedKey>;
  revokeKey(id: number, now: number): Promise<void>;
  addIps(id: number, ips: readonly string[]): Promise<string[]>;
  removeIps(id: number, ips: readonly string[]): Promise<string[]>;
  listKeys(now: number): Promise<KeyListing[]>;
  /**
   * Writes the facts and their entities, and the rollups of the days they touch, all or nothing. A fact
   * that contradicts the database throws ConflictError with its `at`; an error the iterable throws is
   * passed on (after a contradiction in an earlier fact, which is reported first).
   */
  writeFacts(batches: FactBatches): Promise<WriteResult>;
  /** Seeds the restatement model (restate/model.ts) and sets its clock; seeded again, it replaces the model. */
  restate(request: SeedRequest): Promise<ClockMove>;
  /** Moves the model's clock (RestateError without a model). */
  moveClock(target: ClockTarget): Promise<ClockMove>;
  /** Takes the model off: the data as loaded again. */
  removeRestatement(): Promise<ModelStatus>;
  restateStatus(): Promise<ModelStatus | undefined>;
  close(): Promise<void>;
}
