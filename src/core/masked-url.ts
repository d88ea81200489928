/**
 * A URL as it may be shown or kept: its password, or a user name given alone (a token, often), as `***`.
 * One rule for the proxy named in a message (api/route.ts) and a URL on a recorded command line (api/record.ts).
 */
export function maskedUrl(url: URL): URL {
  const copy = new URL(url.href);
  if (copy.password !== "") copy.password = "***";
  else if (copy.username !== "") copy.username = "***";
  return copy;
}
