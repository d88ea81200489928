/** The API key kept out of every message built from what a service sent (it may echo the key back). */
import { keyFragmentRedactor } from "./key-fragments";

export interface Redactor {
  /** `text` with the key, as it is, as a URL carries it, or any 12 characters of it in any case, written `***`. */
  redact(text: string): string;
  /**
   * The first `length` characters of `text`, redacted before it is cut: cut first, a key that straddles
   * the cut would no longer match and its first part would be shown.
   */
  redactedStart(text: string, length: number): string;
}

export function redactor(key: string): Redactor {
  const fragments = keyFragmentRedactor(key, "***");
  const redact = (text: string): string =>
    key === "" ? text : fragments(text.split(key).join("***").split(encodeURIComponent(key)).join("***"));
  return {
    redact,
    redactedStart(text, length) {
      const window = length + 3 * key.length; // a key starting before `length`, even URL-encoded
      return redact(text.slice(0, window)).slice(0, length);
    },
  };
}
