/**
 * What reading a day file back shares between its formats (targets/files/reader.ts): where the rows go (a
 * DayRecord, counted as day-record.ts counts what the service sent), and how a file that is not what the
 * formatter writes is told.
 */
import type { ReportRow } from "../../contract";
import { addRow, type DayRecord } from "../../state/day-record";

/** The file is not what the formatter writes; `message` says where (`line 12: 3 fields, the header has 5`). */
export class UnreadableFile extends Error {}

/** Takes the file's bytes in order, a chunk at a time, into `record`; throws UnreadableFile. */
export interface RowReader {
  write(chunk: Buffer): Promise<void>;
  end(): Promise<void>;
}

const NO_DIMENSIONS: ReportRow["dimensions"] = {};

/** One row's metric values into the record, through addRow, so spending is rounded to micros as it was. */
export function countRow(record: DayRecord, metrics: ReportRow["metrics"]): void {
  addRow(record, { dimensions: NO_DIMENSIONS, metrics });
}

/** A line longer than this is no row adreport wrote; reading stops rather than hold it all. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

const LF = 0x0a;
const CR = 0x0d;

/**
 * Splits bytes into lines at LF (a CR before it dropped), decoding only whole lines, so a character split
 * between two chunks is never cut. `onLine` gets each line and its number (from 1); the last line, if the
 * file does not end with a line feed, comes at `end`.
 */
export class LineSplitter {
  private parts: Buffer[] = [];
  private held = 0;
  private number = 0;

  constructor(private readonly onLine: (text: string, line: number) => void) {}

  write(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const at = chunk.indexOf(LF, start);
      if (at === -1) break;
      this.emit(chunk, start, at);
      start = at + 1;
    }
    if (start < chunk.length) {
      this.held += chunk.length - start;
      if (this.held > MAX_LINE_BYTES) {
        throw new UnreadableFile(`line ${this.number + 1}: longer than ${MAX_LINE_BYTES / 1024 / 1024} MiB`);
      }
      this.parts.push(chunk.subarray(start));
    }
  }

  /** True when the file ended with a line feed (or was empty). */
  end(): boolean {
    if (this.held === 0) return true;
    const rest = Buffer.concat(this.parts);
    this.parts = [];
    this.held = 0;
    this.number += 1;
    this.onLine(rest.toString("utf8"), this.number);
    return false;
  }

  private emit(chunk: Buffer, start: number, end: number): void {
    let line = chunk;
    let from = start;
    let to = end;
    if (this.held > 0) {
      this.parts.push(chunk.subarray(start, end));
      line = Buffer.concat(this.parts);
      from = 0;
      to = line.length;
      this.parts = [];
      this.held = 0;
    }
    if (to > from && line[to - 1] === CR) to -= 1;
    this.number += 1;
    this.onLine(line.toString("utf8", from, to), this.number);
  }
}

/** The row a line holds, or UnreadableFile naming the line. */
export function parseRow(text: string, line: number): ReportRow {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UnreadableFile(`line ${line}: not a JSON row${text.length === 0 ? " (an empty line)" : ""}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new UnreadableFile(`line ${line}: not a row (a JSON object)`);
  }
  const metrics = (value as { metrics?: unknown }).metrics;
  if (typeof metrics !== "object" || metrics === null || Array.isArray(metrics)) {
    throw new UnreadableFile(`line ${line}: a row without its metrics`);
  }
  return value as ReportRow;
}
