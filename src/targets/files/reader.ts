/**
 * A `{date}` export's day file read back, to compare with what the job's ledger kept of it when it was
 * written (state/day-record.ts): its rows and each metric's sum, counted as the export counted the rows
 * the service sent, and the SHA-256 of its bytes, as targets/files/writer.ts takes it. One pass over the file, a
 * chunk at a time: memory does not grow with its size. Parsing costs far more than hashing (csv-parse
 * reads some 30 MB/s here), so a file known to be as written is only hashed.
 */
import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import type { ReportRow } from "../../contract";
import type { DayFileReader, RowReader } from "../../format/day-file";
import { errnoCode, reasonInWords } from "../../io/errno-words";
import { smallFileDigestSync } from "../../io/file-digest";
import { addRow, type DayRecord, emptyRecord } from "../../state/day-record";

export type DayFileReading =
  | { rows: number; sums: Record<string, number>; digest: string; bytes: number }
  /** Not what the format writes (`line 12: 3 fields, the header has 5`), or no file that can be read. */
  | { unreadable: string; digest: string; bytes: number };

const CHUNK = 1 << 16;
/** Day files up to this size are hashed in one synchronous read when their ledger digest is known. */
const SMALL_FILE = 4 << 20;
const SMALLEST_READ = 4096;

const NO_DIMENSIONS: ReportRow["dimensions"] = {};

/** The reader's rows into a record, through addRow, so spending is rounded to micros as the export did. */
function rowsInto(record: DayRecord, reader: DayFileReader, metrics: readonly string[]): RowReader {
  return reader(metrics, (values) => addRow(record, { dimensions: NO_DIMENSIONS, metrics: values }));
}

/**
 * The file's SHA-256 and size alone, in one buffer reused, sized for the file (a day file is mostly far
 * smaller than a chunk: thousands of them are read by one verify).
 */
async function digestOf(handle: FileHandle, size: number): Promise<{ digest: string; bytes: number }> {
  const hash = createHash("sha256");
  const length = Math.min(CHUNK, Math.max(SMALLEST_READ, size + 1));
  const buffer = Buffer.allocUnsafe(length);
  let bytes = 0;
  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, length, bytes);
    if (bytesRead === 0) break;
    bytes += bytesRead;
    hash.update(buffer.subarray(0, bytesRead));
    // A short read at the size the file had is its end: no read more to be told so.
    if (bytesRead < length && bytes >= size) break;
  }
  return { digest: hash.digest("hex"), bytes };
}

/** Hashed and parsed in one pass, from the start. */
async function readRows(
  handle: FileHandle,
  size: number,
  reader: DayFileReader,
  metrics: readonly string[],
): Promise<DayFileReading> {
  const record = emptyRecord(metrics);
  const rows = rowsInto(record, reader, metrics);
  const hash = createHash("sha256");
  let bytes = 0;
  let failure: string | undefined;
  for (;;) {
    // A buffer of its own for each read: the parsers keep the part of a chunk that ends mid-row.
    const length = Math.min(CHUNK, Math.max(SMALLEST_READ, size - bytes + 1));
    const buffer = Buffer.allocUnsafe(length);
    const { bytesRead } = await handle.read(buffer, 0, length, bytes);
    if (bytesRead === 0) break;
    const chunk = buffer.subarray(0, bytesRead);
    bytes += bytesRead;
    hash.update(chunk);
    // Once a file is found unreadable, the rest is still read for its digest and size.
    if (failure === undefined) failure = await rows.write(chunk);
    // A short read at the size the file had is its end: no read more to be told so.
    if (bytesRead < length && bytes >= size) break;
  }
  if (failure === undefined) failure = await rows.end();
  const digest = hash.digest("hex");
  if (failure !== undefined) return { unreadable: failure, digest, bytes };
  return { rows: record.rows, sums: record.sums, digest, bytes };
}

/**
 * `reader` is the format's (format/registry.ts: dayFileReader, for the options the files were written
 * with); `metrics` are the job's (the columns every day file has). With `known`, the ledger's record of the day:
 * a file whose bytes have its digest is what was written, so its rows and sums are the record's, and it
 * is only hashed, not parsed (a file that differs is then read a second time, to be parsed). A path that
 * is not a regular file, or cannot be opened or read (EIO), is unreadable with the digest "" (which no
 * file has); a named pipe is never waited on.
 */
export async function readDayFile(
  path: string,
  reader: DayFileReader,
  metrics: readonly string[],
  known?: DayRecord,
): Promise<DayFileReading> {
  // Most day files are small: one synchronous read decides whether the file is still as written.
  const quick = known?.digest === undefined ? undefined : smallFileDigestSync(path, SMALL_FILE);
  if (known !== undefined && quick !== undefined && quick.sha256 === known.digest) {
    return { rows: known.rows, sums: { ...known.sums }, digest: quick.sha256, bytes: quick.size };
  }
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    return { unreadable: `it cannot be opened: ${reasonInWords(error)}`, digest: "", bytes: 0 };
  }
  try {
    const found = await handle.stat();
    if (!found.isFile()) return { unreadable: "it is not a regular file", digest: "", bytes: 0 };
    // A larger file is hashed a chunk at a time before it is parsed (a small one that differs is parsed at once).
    if (known?.digest !== undefined && quick === undefined) {
      const whole = await digestOf(handle, found.size);
      if (whole.digest === known.digest) return { rows: known.rows, sums: { ...known.sums }, ...whole };
    }
    return await readRows(handle, found.size, reader, metrics);
  } catch (error) {
    if (errnoCode(error) === undefined) throw error;
    return { unreadable: `it cannot be read: ${reasonInWords(error)}`, digest: "", bytes: 0 };
  } finally {
    await handle.close();
  }
}
