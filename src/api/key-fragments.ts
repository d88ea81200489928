/**
 * Parts of a key a service may echo besides the whole key: a prefix it shows "to identify" the key, a
 * lower-cased copy. Any run of at least FRAGMENT characters of the key, in any ASCII letter case, is found
 * here (the masked form adreport itself shows, `adr_abcd…wxyz`, has shorter runs).
 */
const FRAGMENT = 12;

function asciiLower(text: string): string {
  // Not toLowerCase: that may change a string's length (U+0130), and positions must stay those of `text`.
  return text.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));
}

/** `text` with each run made of key fragments written as `replacement`; the same string when it has none. */
export function keyFragmentRedactor(key: string, replacement: string): (text: string) => string {
  if (key.length < FRAGMENT) return (text) => text;
  const lowerKey = asciiLower(key);
  const windows = new Set<string>();
  for (let at = 0; at + FRAGMENT <= lowerKey.length; at += 1) windows.add(lowerKey.slice(at, at + FRAGMENT));
  return (text) => {
    if (text.length < FRAGMENT) return text;
    const lower = asciiLower(text);
    let out = "";
    let copiedTo = 0;
    let coveredTo = -1;
    let runStart = -1;
    for (let at = 0; at + FRAGMENT <= lower.length; at += 1) {
      if (!windows.has(lower.slice(at, at + FRAGMENT))) continue;
      if (at > coveredTo) {
        if (runStart >= 0) {
          out += text.slice(copiedTo, runStart) + replacement;
          copiedTo = coveredTo;
        }
        runStart = at;
      }
      coveredTo = at + FRAGMENT;
    }
    if (runStart < 0) return text;
    return out + text.slice(copiedTo, runStart) + replacement + text.slice(coveredTo);
  };
}
