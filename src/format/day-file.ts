/**
 * A day file read back (`verify`), as the format's writer wrote it: what every format's reader shares. A
 * reader takes the file's bytes in order, a chunk at a time, and hands each row's metric values to `onRow`;
 * the caller counts them (targets/files/reader.ts). A format read from its end (Parquet, whose footer says
 * where its rows are) holds the bytes until end() instead, up to a limit of its own: every reader keeps this
 * one contract, and the caller one pass over the file for its digest and its rows. A file that is not what
 * the writer writes is told by a reason (`line 12: 3 fields, the header has 5`), never by a throw: only a
 * fault of our own throws.
 */
import type { ReportRow } from "../contract";
import type { FormatOptions } from "./formatter";

export type RowMetrics = ReportRow["metrics"];

/** The options the day files were written with, which a job's state keeps beside their format. */
export type DayFileOptions = Pick<FormatOptions, "delimiter" | "bom" | "spreadsheet">;

/** Each resolves to undefined while the bytes are what the writer writes, else to why they are not. */
export interface RowReader {
  write(chunk: Buffer): Promise<string | undefined>;
  end(): Promise<string | undefined>;
}

/** One day file's reader: `metrics` are the columns every day file of the job has. */
export type DayFileReader = (metrics: readonly string[], onRow: (metrics: RowMetrics) => void) => RowReader;

/** What a format's entry loads (format/registry.ts): a reader for the options the files were written with. */
export type DayFileRows = (options: DayFileOptions) => DayFileReader;

/** Inside a reader: the file is not what the writer writes; `message` says where. */
export class UnreadableFile extends Error {}

/** A line longer than this is no row adreport wrote; reading stops rather than hold it all. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

/** A reader that throws UnreadableFile, as a RowReader that tells it. */
export function tellingReasons(reader: { write(chunk: Buffer): Promise<void>; end(): Promise<void> }): RowReader {
  const reason = (error: unknown): string => {
    if (error instanceof UnreadableFile) return error.message;
    throw error;
  };
  return {
    write: (chunk) => reader.write(chunk).then(() => undefined, reason),
    end: () => reader.end().then(() => undefined, reason),
  };
}
