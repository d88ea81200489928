/**
 * Parsing a report page's body so that where each row lies in its bytes is known as well as the rows' values,
 * and parsing it in pieces small enough to stay out of V8's large-object space.
 *
 * A body laid out as a service usually writes it, `{..."data":[rows]}` with `data` its last member and
 * valid UTF-8, is cut at the boundaries between rows (rowBoundaries) into pieces of a few dozen kilobytes, and
 * each piece is decoded and parsed as an array of its own; the rest of the body is parsed with `[]` in the
 * array's place. All of them parsing proves the whole body valid JSON (valid values put in place of a valid
 * value, joined by the commas that were there), and the array is the one JSON.parse would give as `data`: it
 * is the last member of the top-level object (only `}` follows it) and its key is exactly `data` (the quote
 * before it follows `{` or `,`, so it opens the key). Any other layout, or a cut that does not parse, is
 * parsed whole, as JSON.parse would.
 *
 * Why pieces: V8 puts a string of more than 128 KB in its large-object space, where making one costs twice as
 * much, and a page of 1,000 rows is about 160 KB. The boundaries found on the way are what NDJSON copies rows by.
 */
import { isAscii, isUtf8 } from "node:buffer";
import type { SentRows } from "../../contract";
import { CLOSE_ARRAY, OPEN_ARRAY } from "./bytes";
import { rowBoundaries, rowSpans, rowsArrayAt } from "./row-spans";

export interface ParsedReportBody {
  /** What JSON.parse gives for the body. */
  value: unknown;
  /**
   * The body with the place of each of the `expectedRows` rows of `data` in it; none when that cannot be
   * told for sure, or when the bytes do not say exactly what was parsed (not valid UTF-8).
   */
  sent(expectedRows: number): SentRows;
}

/** Rows are parsed in pieces of this many bytes and a row: under 128 KB of string even at two bytes a character. */
const PIECE_BYTES = 32 * 1024;

/** Decodes and parses a body; throws JSON.parse's SyntaxError for one that is not JSON. */
export function parseReportBody(body: Buffer): ParsedReportBody {
  return parsedInPieces(body) ?? parsedWhole(body);
}

function parsedWhole(body: Buffer): ParsedReportBody {
  // An ASCII body is copied byte for byte, twice as fast as decoding UTF-8.
  const value: unknown = JSON.parse(isAscii(body) ? body.toString("latin1") : body.toString("utf8"));
  return {
    value,
    sent: (expectedRows) => ({ body, spans: () => (isUtf8(body) ? rowSpans(body, expectedRows) : undefined) }),
  };
}

function parsedInPieces(body: Buffer): ParsedReportBody | undefined {
  const array = rowsArrayAt(body);
  if (array === undefined) return undefined;
  const ascii = isAscii(body);
  if (!ascii && !isUtf8(body)) return undefined;
  const { open, close } = array;
  const encoding = ascii ? "latin1" : "utf8";
  const boundaries = rowBoundaries(body, open, close);
  try {
    const rest = JSON.parse(`${body.toString(encoding, 0, open)}[]${body.toString(encoding, close + 1)}`) as {
      data: unknown;
    };
    const rows =
      boundaries === undefined ? parseArray(body, open, close, encoding) : parseRows(body, boundaries, encoding);
    rest.data = rows;
    const spans = boundaries !== undefined && boundaries.length === rows.length * 2 ? boundaries : undefined;
    return {
      value: rest,
      sent: (expectedRows) => ({
        body,
        spans: () => (spans !== undefined && spans.length === expectedRows * 2 ? spans : rowSpans(body, expectedRows)),
      }),
    };
  } catch {
    return undefined;
  }
}

/** The rows, parsed a piece at a time: each piece runs from the start of one row to the end of a later one. */
function parseRows(body: Buffer, spans: readonly number[], encoding: BufferEncoding): unknown[] {
  const pieces: unknown[][] = [];
  const last = spans.length / 2 - 1;
  let start = spans[0] as number;
  for (let row = 0; row <= last; row += 1) {
    const end = spans[2 * row + 1] as number;
    if (end - start < PIECE_BYTES && row < last) continue;
    pieces.push(parseArray(body, start - 1, end, encoding));
    if (row < last) start = spans[2 * row + 2] as number;
  }
  return pieces.length === 1 ? (pieces[0] as unknown[]) : ([] as unknown[]).concat(...pieces);
}

/**
 * The array between `open` and `close`, parsed with `[` and `]` written there for the while it is decoded
 * (the bytes there are commas between rows, or the brackets themselves), then put back.
 */
function parseArray(body: Buffer, open: number, close: number, encoding: BufferEncoding): unknown[] {
  const before = body[open] as number;
  const after = body[close] as number;
  body[open] = OPEN_ARRAY;
  body[close] = CLOSE_ARRAY;
  const text = body.toString(encoding, open, close + 1);
  body[open] = before;
  body[close] = after;
  return JSON.parse(text) as unknown[];
}
