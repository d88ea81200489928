/** What every output format implements. Adding a format is adding a file and a line in registry.ts. */
import type { Writable } from "node:stream";
import type { ReportStream } from "../contract/report-stream";

export interface FormatOptions {
  /** CSV field delimiter. */
  delimiter: string;
  /** CSV: a UTF-8 byte-order mark first, for spreadsheet programs. */
  bom: boolean;
  /** CSV for spreadsheet programs: a byte-order mark, CRLF, and text that would run as a formula defused. */
  spreadsheet: boolean;
  /** Table: colour in headers. Decided for the stream written to: never for a file. */
  color: boolean;
  /**
   * json: the whole request's range as the service was asked for it (ISO 8601), into `meta` beside what the
   * service said; absent where one range would not be true of the rows (day files, several accounts merged).
   */
  range?: { from: string; to: string } | undefined;
  /** html: the query, for the page's header (the command's own words for it). */
  query?: string;
  /** html: when the export was made (ctx.now()). */
  exportedAt?: Date;
  /** chart: the width of the terminal, in columns. */
  width?: number;
}

export interface Formatter {
  write(report: ReportStream, out: Writable, options: FormatOptions): Promise<void>;
}
