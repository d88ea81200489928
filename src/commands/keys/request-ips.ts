/** The --ip addresses of `adreport keys request`, for one profile or all of them. */
import { isIP } from "node:net";
import { UsageError } from "../../core/errors";
import type { KeysRequestOptions } from "./flags";
import type { RequestType } from "./request-text";

/** The --ip addresses a request of this type takes, checked, each once. */
export function requestIps(type: RequestType, options: KeysRequestOptions): string[] {
  const ips = options.ip ?? [];
  for (const ip of ips) {
    if (isIP(ip) === 0) throw new UsageError(`--ip: ${JSON.stringify(ip)} is not an IPv4 or IPv6 address`);
  }
  if ((type === "add-ip" || type === "remove-ip") && ips.length === 0) {
    throw new UsageError(`${type} needs the static outgoing IP address(es): --ip <address>`);
  }
  if (type === "rotate" && ips.length > 0)
    throw new UsageError("a rotation keeps the whitelist; use add-ip or remove-ip to change it");
  return [...new Set(ips)];
}
