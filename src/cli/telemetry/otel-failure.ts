/**
 * Why an export to the collector failed, in one line a person reads: the exporters hand back Node's and
 * OpenSSL's own messages (several lines of `ssl3_get_record:wrong version number:../deps/openssl/...`).
 */
import { printable } from "../../core/printable";

function chainOf(error: unknown): Error[] {
  const chain: Error[] = [];
  let current: unknown = error;
  while (current instanceof Error && !chain.includes(current)) {
    chain.push(current);
    current = current.cause;
  }
  return chain;
}

export function otelFailureWords(error: Error | undefined): string {
  if (error === undefined) return "not accepted";
  const chain = chainOf(error);
  const codes = chain.map((e) => (e as NodeJS.ErrnoException).code).filter((c) => typeof c === "string");
  const messages = chain.map((e) => e.message).join(" ");
  if (/wrong version number|packet length too long|ERR_SSL_WRONG_VERSION_NUMBER/i.test(`${messages} ${codes}`))
    return "the endpoint answered in plain HTTP, not TLS (an https:// endpoint on a plain-HTTP port?)";
  const certificate = codes.find((c) => /CERT|SIGNATURE|ALTNAME/.test(c));
  if (certificate !== undefined) return `its TLS certificate was refused (${certificate})`;
  const refused = chain.find((e) => (e as NodeJS.ErrnoException).code === "ECONNREFUSED") as
    | (Error & { address?: unknown; port?: unknown })
    | undefined;
  if (refused !== undefined) {
    // The address says where it went: the SDK takes localhost:4318 for an endpoint it cannot read.
    const where = typeof refused.address === "string" ? ` by ${refused.address}:${String(refused.port)}` : "";
    return `connection refused${where} (is the collector running there?)`;
  }
  if (/SSL routines/.test(messages)) return `a TLS failure (${codes[0] ?? "EPROTO"})`;
  return printable(error.message.trim().split("\n")[0]?.slice(0, 200) ?? "");
}
