/**
 * The forms of a key a service may echo, each to be written `***` wherever it is found: the key as it is and
 * URL-encoded, its hex in either case, and its base64 and base64url, with or without padding, alone or as
 * `Bearer KEY`, `KEY:` and `:KEY` (HTTP Basic) are sent. Inside any longer base64 text the key starts at
 * one of three byte alignments; for each, the characters made of the key's bits alone are found wherever
 * they stand (the one or two characters at each end, shared with the neighbouring bytes, stay).
 */

/** Shorter forms (of a short key) would match ordinary text. */
const MIN_FORM = 8;

const base64 = (bytes: Buffer) => bytes.toString("base64");
const base64url = (bytes: Buffer) => bytes.toString("base64url");
const unpadded = (text: string) => text.replace(/=+$/, "");

/** The characters of base64(`k` other bytes + key + anything) that depend on the key alone. */
function alignedCore(key: Buffer, k: number, encode: (bytes: Buffer) => string): string {
  const text = encode(Buffer.concat([Buffer.alloc(k), key]));
  return text.slice(Math.ceil((8 * k) / 6), Math.floor((8 * (k + key.length)) / 6));
}

/** Every form, longest first (a longer one may hold a shorter one), each once. */
export function keyForms(key: string): string[] {
  if (key === "") return [];
  const bytes = Buffer.from(key, "utf8");
  const hex = bytes.toString("hex");
  const always = [key, encodeURIComponent(key)];
  const forms = [hex, hex.toUpperCase()];
  const encoded: string[] = [];
  for (const text of [key, `Bearer ${key}`, `${key}:`, `:${key}`]) {
    const sent = Buffer.from(text, "utf8");
    encoded.push(base64(sent), unpadded(base64(sent)), base64url(sent));
  }
  for (const k of [0, 1, 2]) encoded.push(alignedCore(bytes, k, base64), alignedCore(bytes, k, base64url));
  // A base64 text in a URL has its + / = escaped.
  for (const form of encoded) forms.push(form, encodeURIComponent(form));
  const kept = new Set([...always, ...forms.filter((form) => form.length >= MIN_FORM)]);
  return [...kept].sort((a, b) => b.length - a.length);
}
