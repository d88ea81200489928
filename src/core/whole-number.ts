/**
 * The one reader of a whole number typed by a user (a flag, a setting, the N of `-Nd`): decimal digits
 * only, so a sign, a point, an exponent, hex or white space inside is refused rather than guessed at.
 * Each caller trims what it reads and says in its own words what it expected.
 */
export function readWholeNumber(text: string): number | undefined {
  return /^\d+$/.test(text) ? Number(text) : undefined;
}
