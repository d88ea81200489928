/** A word of a command line printed in a hint, so the hint runs as printed: single-quoted when the shell would split or expand it. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
