/** What table-target.ts needs of a database: one transaction, a table, a delete of days, a bulk insert. */
import type { TableLayout } from "./table-columns";

export interface TableInserter {
  /** Rows' data values, in the layout's column order. */
  write(rows: ReadonlyArray<Array<string | number | null>>): Promise<void>;
  end(): Promise<void>;
}

export interface TableEngine {
  /** For messages: the table and the database, never a password. */
  readonly description: string;
  /** The table's column names in their order; undefined while there is no table. */
  columns(): Promise<string[] | undefined>;
  begin(layout: TableLayout): Promise<void>;
  /** What a statement under way has been waiting for (`waited 4.2 s for a lock on ...`), if anything. */
  waiting?(): string | undefined;
  /** Deletes the rows of the layout's profile and scope whose date is from `from` to `to` (days, inclusive). */
  deleteDays(layout: TableLayout, from: string, to: string): Promise<void>;
  startInsert(layout: TableLayout, exportedAt: Date): Promise<TableInserter>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  /** For a signal handler: drops the connection at once, so a statement waiting for a lock ends (rolled back). */
  abortNow(): void;
  close(): Promise<void>;
}
