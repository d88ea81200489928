/** What `serve`'s store asks of a backend (SQLite or PostgreSQL): SQL only, no policy (serve-store.ts). */
import type { ReportQuery } from "../../contract";
import type { ComputedReport } from "../report/computed-reports";
import type { PageSpan } from "../report/page-map";
import type { Awaitable, Steps } from "./steps";
import type { StoredKey } from "./types";

/** What a backend reads, SQL only. */
export interface ServeReads {
  key(hash: string): Awaitable<StoredKey | undefined>;
  keyIps(keyId: number): Awaitable<string[]>;
  campaignAdvertiser(campaignId: number): Awaitable<number | undefined>;
  adAdvertiser(adId: number): Awaitable<number | undefined>;
  /** A page map (an entity report) or the rows (a report without one), with the data version it read. */
  computeReport(query: ReportQuery, advertiserId: number): Awaitable<ComputedReport>;
  /** Rows of the entities `span` names, from its first row on, and the data version they were read from. */
  readPage(
    query: ReportQuery,
    advertiserId: number,
    span: PageSpan,
    count: number,
  ): Awaitable<{ rows: string[]; version?: number | undefined }>;
  /** The same rows joined by commas as UTF-8, where the backend reads them so (no data version to check). */
  readJoinedPage?(query: ReportQuery, advertiserId: number, span: PageSpan, count: number): Awaitable<Buffer>;
  /** The data changed under a kept map: the backend takes `version` as the one it now holds. */
  versionSeen?(version: number | undefined): void;
}

export interface ServeBackend {
  /** Runs `steps` on the database as it is now (failures answered 503), after a look at its freshness. */
  read<T>(steps: (db: ServeReads) => Steps<T>): Awaitable<T>;
  /** The same, all of it reading one snapshot of the data (a report's map and its page). */
  snapshot<T>(steps: (db: ServeReads) => Steps<T>): Awaitable<T>;
  close(): Awaitable<void>;
}
