/**
 * Text for a terminal. Names and messages come from advertisers and services; written raw, a control
 * character in one could recolour the terminal, set its title or move the cursor. Each such character is
 * written as an escape instead: `\t`, `\n`, `\r`, else `\xHH` (C0, DEL, C1) or `\uHHHH` (the Unicode line
 * and paragraph separators, which some terminals treat as line breaks, and the bidirectional controls,
 * which can make text read in another order than it is stored). A backslash is left as it is: the text
 * is for reading, and the data formats keep the exact bytes.
 */
// Cc: C0, DEL and C1; Zl, Zp: U+2028, U+2029; Bidi_Control: U+061C, U+200E-F, U+202A-E, U+2066-9.
const UNSAFE = /[\p{Cc}\p{Zl}\p{Zp}\p{Bidi_Control}]/u;
const UNSAFE_ALL = /[\p{Cc}\p{Zl}\p{Zp}\p{Bidi_Control}]/gu;
const NAMED: Readonly<Record<string, string>> = { "\t": "\\t", "\n": "\\n", "\r": "\\r" };

function escapeOf(char: string): string {
  const named = NAMED[char];
  if (named !== undefined) return named;
  const code = char.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
}

/** `text` with every control character escaped; the same string when it has none. */
export function printable(text: string): string {
  return UNSAFE.test(text) ? text.replace(UNSAFE_ALL, escapeOf) : text;
}

/** Lines for a terminal: each line made printable, the line breaks between them kept. */
export function printableLines(text: string): string {
  return text.split("\n").map(printable).join("\n");
}
