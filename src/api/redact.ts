/** The API key kept out of every message built from what a service sent (it may echo the key back). */
import { keyForms } from "./key-forms";
import { keyFragmentRedactor } from "./key-fragments";

export interface Redactor {
  /**
   * `text` with the key written `***`: as it is, in any form of key-forms.ts (URL-encoded, hex, base64), or
   * any 12 characters of it in any case.
   */
  redact(text: string): string;
  /**
   * The first `length` characters of `text`, redacted before it is cut: cut first, a key that straddles
   * the cut would no longer match and its first part would be shown.
   */
  redactedStart(text: string, length: number): string;
}

export function redactor(key: string): Redactor {
  const fragments = keyFragmentRedactor(key, "***");
  const forms = keyForms(key);
  const redact = (text: string): string =>
    key === "" ? text : fragments(forms.reduce((done, form) => done.split(form).join("***"), text));
  return {
    redact,
    redactedStart(text, length) {
      const window = length + (forms[0]?.length ?? 0); // a key starting before `length`, in its longest form
      return redact(text.slice(0, window)).slice(0, length);
    },
  };
}
