/** What targets/table/target.ts needs of a database: one transaction, a table, a delete of days, a bulk insert. */

import type { DayLoad } from "../day-target";
import type { TableDialect } from "./column-types";
import type { TableLayout } from "./columns";
import type { LoadsOf } from "./loads";
import type { FoundColumn } from "./shape";

export interface TableInserter {
  /** Rows' data values, in the layout's column order. */
  write(rows: ReadonlyArray<Array<string | number | null>>): Promise<void>;
  end(): Promise<void>;
}

export interface TableEngine {
  /** For messages: the table and the database, never a password. */
  readonly description: string;
  /** Its kind's column types, sums and hints. */
  readonly dialect: TableDialect;
  /**
   * The table's columns in their order, with their declared types; undefined while there is no table. `of`:
   * another table of the same database (adreport_loads).
   */
  columns(of?: string): Promise<FoundColumn[] | undefined>;
  /** What else (`an index`, `a view`) holds the table's name where a new table would go; undefined when nothing does. */
  nameHeldBy(): Promise<string | undefined>;
  /** Whether this session may add columns to the table (PostgreSQL: only its owner may); true while there is none. */
  mayAlter(): Promise<boolean>;
  /** Opens the transaction; creates the table (with `run_id`) when it is missing. */
  begin(layout: TableLayout): Promise<void>;
  /** Adds the columns (SQL types given) the table still lacks, in the transaction; returns those it added. */
  addColumns(columns: ReadonlyArray<{ name: string; type: string }>): Promise<string[]>;
  /** What a statement under way has been waiting for (`waited 4.2 s for a lock on ...`), if anything. */
  waiting?(): string | undefined;
  /** Deletes the rows of the layout's profile and scope whose date is from `from` to `to` (days, inclusive). */
  deleteDays(layout: TableLayout, from: string, to: string): Promise<void>;
  /** Inserts rows; `runId` fills `run_id`, left out where the table has no such column. */
  startInsert(layout: TableLayout, exportedAt: Date, runId: string | undefined): Promise<TableInserter>;
  /** Adds the run's rows to `adreport_loads` (made when missing); false when it is missing and may not be made. */
  writeLoads(of: LoadsOf, loads: ReadonlyArray<DayLoad>): Promise<boolean>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  /** For a signal handler: drops the connection at once, so a statement waiting for a lock ends (rolled back). */
  abortNow(): void;
  close(): Promise<void>;
}
