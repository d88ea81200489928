/**
 * Where the report lives (docs/service.md §2): `GET /v1/report` under a base URL, which may carry a path
 * prefix (a service behind a gateway). One check of a base URL serves the settings that store it and the
 * client that calls it, so a URL one accepts the other never refuses.
 */

export const REPORT_PATH = "/v1/report";

/** Why a text is not a base URL. */
type BaseUrlProblem = "not-absolute" | "not-http" | "has-credentials";

/**
 * The base URL as the client uses it (query and fragment dropped), or why it cannot be one: it must be an
 * absolute http(s) URL, and carry no user name or password (the key travels in a header, never in a URL).
 */
export function parseBaseUrl(text: string): { ok: true; url: URL } | { ok: false; problem: BaseUrlProblem } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, problem: "not-absolute" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { ok: false, problem: "not-http" };
  if (url.username || url.password) return { ok: false, problem: "has-credentials" };
  url.search = "";
  url.hash = "";
  return { ok: true, url };
}

/** The report endpoint under a base URL, keeping its path prefix: `https://host/api/` → `https://host/api/v1/report`. */
export function reportEndpoint(base: URL): URL {
  return new URL(`${base.pathname.replace(/\/$/, "")}${REPORT_PATH}`, base);
}

/**
 * One service: the same report endpoint, so case, a default port and a trailing slash do not make two
 * (`HTTP://Host:80/` and `http://host` are one). Texts that are no base URL are compared as written, less
 * trailing slashes.
 */
export function sameService(a: string, b: string): boolean {
  const left = parseBaseUrl(a);
  const right = parseBaseUrl(b);
  if (!left.ok || !right.ok) return a.replace(/\/+$/, "") === b.replace(/\/+$/, "");
  return reportEndpoint(left.url).href === reportEndpoint(right.url).href;
}
