/**
 * Rows in the API's shape (NDJSON and JSON output), each on one line. Rows that came straight from an
 * answer are copied from its bytes as the service wrote them; parsing them and serialising them again cost
 * more than everything else in a large export. A row written over several lines, rows whose place in the
 * answer cannot be told for sure (see parseReportBody), and merged rows (no answer) are serialised from the
 * parsed row instead.
 */
import type { RowPage } from "../contract";

const LF = 0x0a;
const CR = 0x0d;

function hasLineBreak(bytes: Uint8Array): boolean {
  return bytes.includes(LF) || bytes.includes(CR);
}

/** The page's rows joined by `separator`, then `end`. May overwrite the answer's bytes (see SentRows). */
export function joinRows(page: RowPage, separator: string, end: string): Buffer {
  const { rows, sent } = page;
  const spans = sent !== undefined && rows.length > 0 ? sent.spans() : undefined;
  if (sent === undefined || spans === undefined) {
    return Buffer.from(`${rows.map((row) => JSON.stringify(row)).join(separator)}${end}`);
  }
  const { body } = sent;
  const first = spans[0] as number;
  const last = spans[spans.length - 1] as number;
  const source = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return compactRows(source, spans, first, last, separator, end) ?? rowByRow(page, source, spans, separator, end);
}

/**
 * The common case, a compact body (rows one byte apart, no line breaks inside) and a one-byte separator:
 * the gaps between rows and the byte after the last one are overwritten in place, and the run of rows is
 * written straight from the body, with no copy and no allocation.
 */
function compactRows(
  source: Buffer,
  spans: readonly number[],
  first: number,
  last: number,
  separator: string,
  end: string,
): Buffer | undefined {
  const code = separator.charCodeAt(0);
  if (separator.length !== 1 || code > 0x7f || end !== separator || last >= source.length) return undefined;
  if (hasLineBreak(source.subarray(first, last))) return undefined;
  for (let i = 2; i < spans.length; i += 2) if ((spans[i] as number) !== (spans[i - 1] as number) + 1) return undefined;
  for (let i = 1; i < spans.length; i += 2) source[spans[i] as number] = code;
  return source.subarray(first, last + 1);
}

function rowByRow(page: RowPage, source: Buffer, spans: readonly number[], separator: string, end: string): Buffer {
  const between = Buffer.from(separator);
  const parts: Buffer[] = [];
  for (let i = 0; i < page.rows.length; i += 1) {
    const row = source.subarray(spans[2 * i] as number, spans[2 * i + 1] as number);
    if (i > 0) parts.push(between);
    parts.push(hasLineBreak(row) ? Buffer.from(JSON.stringify(page.rows[i])) : row);
  }
  parts.push(Buffer.from(end));
  return Buffer.concat(parts);
}
