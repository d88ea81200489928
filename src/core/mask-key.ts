/**
 * A key as it may be shown (`adr_abcd…wxyz`): its prefix, four characters and the last four, enough to
 * tell keys apart and far too little to use one. Both the CLI's profiles and `serve key list` show this.
 * A control character in a hand-edited key is shown escaped, never written raw to a terminal.
 */
import { printable } from "./printable";

export function maskKey(key: string | undefined): string {
  if (key === undefined || key === "") return "(none)";
  const prefix = /^[A-Za-z]{2,8}_/.exec(key)?.[0] ?? "";
  const rest = key.slice(prefix.length);
  if (rest.length < 12) return `${prefix}${"*".repeat(4)}`;
  return printable(`${prefix}${rest.slice(0, 4)}…${rest.slice(-4)}`);
}
