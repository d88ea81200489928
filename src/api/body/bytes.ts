/**
 * The bytes of JSON that locating rows in a body looks at. These modules live beside the client, not in
 * contract/: the wire rules say what a page means; where its rows lie in the bytes is how this client reads
 * it fast (the server writes bodies with JSON.stringify and never scans them).
 */

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
export const OPEN_ARRAY = 0x5b;
export const CLOSE_ARRAY = 0x5d;
export const COLON = 0x3a;
export const COMMA = 0x2c;

/** JSON's four whitespace bytes: space, line feed, carriage return, tab. */
export function isJsonSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}
