/** What the table machinery (targets/table/) needs of a table kind's database, and what `verify` reads of it. */
import type { ReportRequest } from "../../contract";
import type { TableEngine } from "./engine";
import type { FailureWords } from "./failure";

export type DaySums = Map<string, { rows: number; sums: Record<string, number> }>;

export interface TableReader {
  readonly description: string;
  /** Days from `from` to `to` (YYYY-MM-DD, inclusive) that have rows; a day without rows is absent. */
  daySums(from: string, to: string): Promise<DaySums>;
  /** What is gone, said whole (`no database file x.db`, `no table t in x.db`); undefined while the table is there. */
  missing(): Promise<string | undefined>;
  close(): Promise<void>;
}

export interface ReaderOptions {
  profile: string;
  request: ReportRequest;
  cwd: string;
  sqliteAddon: object | undefined;
}

/**
 * A table of one kind's database, as the shared machinery below needs it: its name, the database named for
 * messages, the driver's failures in words, and the database opened (its driver loaded only then).
 */
export interface TableAccess {
  readonly table: string;
  /** The database before it is open: the file as given, the URL without its password. */
  readonly where: string;
  readonly failureWords: FailureWords;
  engine(place: { cwd: string; sqliteAddon: object | undefined }): Promise<TableEngine>;
  /** What verify reads (targets/table/reader.ts wraps it with the failure's words). */
  reader(options: ReaderOptions): Promise<TableReader>;
}
