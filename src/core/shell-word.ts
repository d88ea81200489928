/** A word as a POSIX shell reads it back unchanged: bare when it is safe so, else in single quotes. */
export function shellWord(text: string): string {
  if (/^[A-Za-z0-9_./:@%+=,-]+$/.test(text)) return text;
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
