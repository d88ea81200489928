/** Words as a POSIX shell line that gives them back: a word of safe characters as it is, any other in '...'. */
const SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

export function shellLine(words: readonly string[]): string {
  return words.map((word) => (SAFE.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`)).join(" ");
}
