/** One line per request for the operator. The key never appears: only known parameters keep their values. */
import { QUERY_PARAMS } from "../../contract";

const KNOWN = new Set<string>(QUERY_PARAMS);
const KEY_LIKE = /adr_[A-Za-z0-9_-]{8,}/g;

function loggableUrl(url: string): string {
  const queryStart = url.indexOf("?");
  if (queryStart < 0) return url.replace(KEY_LIKE, "adr_***");
  const params = new URLSearchParams(url.slice(queryStart + 1));
  const shown = [...params].map(([name, value]) =>
    KNOWN.has(name) ? `${name}=${encodeURIComponent(value)}` : `${encodeURIComponent(name.slice(0, 40))}=***`,
  );
  return `${url.slice(0, queryStart)}?${shown.join("&")}`.replace(KEY_LIKE, "adr_***");
}

export function accessLine(entry: {
  ip: string;
  method: string;
  url: string;
  /** The status sent, or what a fault did instead of answering (`fault:hang`). */
  status: number | string;
  ms: number;
  keyId: number | undefined;
}): string {
  const key = entry.keyId === undefined ? "-" : `key#${entry.keyId}`;
  return `${new Date().toISOString()} ${entry.ip} ${key} ${entry.method} ${loggableUrl(entry.url)} ${entry.status} ${entry.ms.toFixed(1)}ms`;
}
