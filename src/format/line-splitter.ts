/**
 * Lines of a day file written a row a line (format/json-day-file.ts), split from its bytes a chunk at a
 * time without ever holding more than one line.
 */
import { MAX_LINE_BYTES, UnreadableFile } from "./day-file";

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
