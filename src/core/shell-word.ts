import { printable } from "./printable";

/**
 * A word of a command line printed in a hint, so the hint runs as printed: single-quoted when the shell
 * would split or expand it; with a control character (a line break in a file name), in bash's `$'...'`,
 * whose escapes are the ones the printed message shows (single-quoted, it would be printed escaped, and
 * run as a backslash and an `n`).
 */
export function shellWord(word: string): string {
  if (/^[A-Za-z0-9_./:@%+=,-]+$/.test(word)) return word;
  if (printable(word) === word) return `'${word.replaceAll("'", `'\\''`)}'`;
  return `$'${printable(word.replaceAll("\\", "\\\\").replaceAll("'", "\\'"))}'`;
}
