/**
 * Where the rows of a report page lie in the bytes of its body, so a formatter that keeps the API's row
 * shape (NDJSON, JSON) can copy rows as the service sent them instead of serialising parsed rows again,
 * the largest cost of a large NDJSON export; and where parseReportBody can cut a page to parse it in pieces.
 *
 * None of these checks syntax: they are for bodies that JSON.parse accepts (rowSpans) or that
 * parseReportBody proves valid by parsing (rowsArrayAt, rowBoundaries). Each answers undefined whenever it
 * cannot be sure.
 */

import {
  BACKSLASH,
  CLOSE_ARRAY,
  CLOSE_OBJECT,
  COLON,
  COMMA,
  isJsonSpace,
  OPEN_ARRAY,
  OPEN_OBJECT,
  QUOTE,
} from "./bytes";

/** Bytes the scan must look at; every other byte (digits, letters, whitespace) is passed over. */
const STRUCTURAL = new Uint8Array(256);
for (const byte of [QUOTE, OPEN_OBJECT, CLOSE_OBJECT, OPEN_ARRAY, CLOSE_ARRAY, COLON, COMMA]) STRUCTURAL[byte] = 1;

const DATA_KEY = [0x64, 0x61, 0x74, 0x61]; // data

function isDataKey(body: Uint8Array, open: number, close: number): boolean {
  if (close - open - 1 !== DATA_KEY.length) return false;
  for (let k = 0; k < DATA_KEY.length; k += 1) if (body[open + 1 + k] !== DATA_KEY[k]) return false;
  return true;
}

/**
 * The rows of the top-level `data` array as pairs of offsets, [start, end) of row 0, then of row 1, and so
 * on; undefined when the body is not an object, has no `data` array of objects spelled plainly, has a
 * top-level key written with an escape, or when `expectedRows` (the number JSON.parse found) disagrees. A repeated `data` key resolves as in JSON.parse:
 * the last one counts.
 */
export function rowSpans(body: Uint8Array, expectedRows: number): number[] | undefined {
  const spans = locateRows(body);
  return spans !== undefined && spans.length === expectedRows * 2 ? spans : undefined;
}

function locateRows(body: Uint8Array): number[] | undefined {
  let depth = 0;
  let expectKey = false;
  let lastKeyIsData = false;
  let inData = false;
  let current: number[] = [];
  let found: number[] | undefined;
  let rowStart = 0;
  const length = body.length;
  for (let i = 0; i < length; i += 1) {
    const byte = body[i] as number;
    if (STRUCTURAL[byte] === 0) continue;
    switch (byte) {
      case QUOTE: {
        const start = i;
        let escaped = false;
        for (i += 1; i < length && body[i] !== QUOTE; i += 1) {
          if (body[i] === BACKSLASH) {
            escaped = true;
            i += 1;
          }
        }
        if (depth === 1 && expectKey) {
          // A top-level key spelled with an escape may be `data` (`"d\u0061ta"`) and replace the rows found;
          // telling would mean decoding it, and a service that writes keys so is rare: give up on copying.
          if (escaped) return undefined;
          lastKeyIsData = isDataKey(body, start, i);
          if (lastKeyIsData) found = undefined; // a later `data` replaces an earlier one, as in JSON.parse
        }
        break;
      }
      case OPEN_OBJECT:
      case OPEN_ARRAY:
        if (depth === 0 && byte !== OPEN_OBJECT) return undefined;
        if (depth === 1 && byte === OPEN_ARRAY && lastKeyIsData) {
          inData = true;
          current = [];
        } else if (depth === 2 && inData) {
          if (byte !== OPEN_OBJECT) return undefined;
          rowStart = i;
        }
        depth += 1;
        if (depth === 1) expectKey = true;
        break;
      case CLOSE_OBJECT:
      case CLOSE_ARRAY:
        depth -= 1;
        if (depth < 0) return undefined;
        if (inData && depth === 2) current.push(rowStart, i + 1);
        else if (inData && depth === 1) {
          inData = false;
          found = current;
        }
        break;
      case COLON:
        if (depth === 1) expectKey = false;
        break;
      case COMMA:
        if (depth === 1) expectKey = true;
        break;
    }
  }
  return depth === 0 ? found : undefined;
}

const DATA_MEMBER = Buffer.from('"data":[');

/** Where `"data":[` opens and `]` closes the array a body ends with (`...]}` and whitespace), if it does. */
export function rowsArrayAt(body: Buffer): { open: number; close: number } | undefined {
  let end = body.length;
  while (end > 0 && isJsonSpace(body[end - 1] as number)) end -= 1;
  if (body[end - 1] !== CLOSE_OBJECT || body[end - 2] !== CLOSE_ARRAY) return undefined;
  const member = body.indexOf(DATA_MEMBER);
  if (member < 1) return undefined;
  const before = body[member - 1];
  if (before !== OPEN_OBJECT && before !== COMMA) return undefined;
  const open = member + DATA_MEMBER.length - 1;
  const close = end - 2;
  return open < close ? { open, close } : undefined;
}

const ROW_BOUNDARY = Buffer.from("},{");

/**
 * The rows of the array whose `[` is at `open` and `]` at `close` in `body`, found by searching for `},{"`
 * instead of scanning every byte, as [start, end) pairs; undefined when the array holds a `[` or does not
 * begin and end with a row. Sound for a body that is valid JSON (which parseReportBody proves by parsing
 * the rows cut at these places):
 * - `},{"` followed by anything that cannot follow a string's closing quote is the end of an object, the
 *   comma and the start of the next object in some array: the quote opens a key, so none of the four
 *   characters is inside a string;
 * - with no `[` between the brackets there is no array inside the rows, so every match lies between two rows.
 * Every boundary between rows is found when the caller counts one pair per row; rows with whitespace
 * around or between them give fewer pairs.
 */
export function rowBoundaries(body: Uint8Array, open: number, close: number): number[] | undefined {
  if (body[open + 1] !== OPEN_OBJECT || body[close - 1] !== CLOSE_OBJECT) return undefined;
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const nested = bytes.indexOf(OPEN_ARRAY, open + 1);
  if (nested !== -1 && nested < close) return undefined;
  const spans: number[] = [];
  let start = open + 1;
  for (let at = bytes.indexOf(ROW_BOUNDARY, start); at !== -1 && at < close; at = bytes.indexOf(ROW_BOUNDARY, at + 2)) {
    if (body[at + 3] !== QUOTE || mayFollowValue(body[at + 4] as number)) continue;
    spans.push(start, at + 1);
    start = at + 2;
  }
  spans.push(start, close);
  return spans;
}

/** Whether a byte may follow a complete value (a string's closing quote): `,` `:` `}` `]` or whitespace. */
function mayFollowValue(byte: number): boolean {
  return byte === COMMA || byte === COLON || byte === CLOSE_OBJECT || byte === CLOSE_ARRAY || byte <= 0x20;
}
