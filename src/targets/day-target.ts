/**
 * Where a run that writes whole days puts them: one file per day (`{date}` in --output), or a database
 * table. Nothing reaches the target before `commit`; `abort` leaves it exactly as it was.
 */
import type { ReportStream } from "../contract/report-stream";
import type { DayRecord } from "../state/day-record";

export interface DaySpan {
  /** YYYY-MM-DD, inclusive. */
  from: string;
  to: string;
  /** Days that exist in the output even without rows (every day of a daily or hourly range). */
  everyDay: readonly string[];
}

/** What a run wrote of one day, for the ledger beside a table (`adreport_loads`). */
export interface DayLoad {
  day: string;
  rows: number;
  /** Metric name -> sum; spending in integer micros (as src/state/day-record.ts). */
  sums: Record<string, number>;
  /** The requests of the window that fetched the day. */
  requests: number;
}

export interface DayTarget {
  /** For messages: the template or the table. */
  readonly description: string;
  /** True when every fetched day is replaced on commit (a table); false when only the days asked for are (files). */
  readonly replacesAll: boolean;
  /**
   * Before any request, with the days (bucket starts) the run may write: refuses an output that is not a
   * regular file (a named pipe, a device: replacing it would leave its reader with nothing), and removes
   * what runs killed earlier left beside the outputs. Tables: nothing to do.
   */
  prepare(days: readonly string[]): Promise<void>;
  /** Takes in one fetched report covering `span`; returns what each of its days held. */
  stage(report: ReportStream, span: DaySpan): Promise<Map<string, DayRecord>>;
  /** Forgets what was staged (the report changed while it was fetched: it is fetched again). */
  restart(): Promise<void>;
  /**
   * Whether the day's output is what was staged for it: `missing` (a day file removed), `other` (a day file
   * changed or damaged since it was written, or written in another format), or `as staged`. Tables: `as staged`.
   */
  found(day: string): Promise<"missing" | "other" | "as staged">;
  /**
   * Puts in place the days given (files), or everything staged (a table), in one step per file or one
   * transaction. A table also records `loads` in `adreport_loads` in that transaction; files ignore them.
   */
  commit(days: ReadonlySet<string>, loads?: ReadonlyArray<DayLoad>): Promise<void>;
  abort(): Promise<void>;
  /** What the target has been waiting for (another session's lock on a table), for --max-time's message. */
  waiting(): string | undefined;
  /** For a signal handler: drops what was staged without waiting. */
  abortNow(): void;
}
