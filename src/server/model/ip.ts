/** Whitelist entries: exact IPv4/IPv6 addresses or CIDR ranges, kept in one canonical spelling. */
import { BlockList, isIP } from "node:net";

/** `::ffff:127.0.0.1` is 127.0.0.1; IPv6 is lower-case and compressed. Undefined when not an address. */
export function canonicalAddress(text: string): string | undefined {
  const family = isIP(text);
  if (family === 4) return text;
  if (family !== 6) return undefined;
  const compressed = new URL(`http://[${text}]/`).hostname.slice(1, -1);
  const mapped =
    /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(compressed) ?? /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(compressed);
  if (!mapped) return compressed;
  if (mapped.length === 2) return mapped[1];
  const high = Number.parseInt(mapped[1] as string, 16);
  const low = Number.parseInt(mapped[2] as string, 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** An address or `address/prefix`, canonical; undefined when it is neither. */
export function canonicalEntry(text: string): string | undefined {
  const slash = text.indexOf("/");
  if (slash < 0) return canonicalAddress(text.trim());
  const address = canonicalAddress(text.slice(0, slash).trim());
  const prefixText = text.slice(slash + 1).trim();
  if (!address || !/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = Number(prefixText);
  if (prefix > (isIP(address) === 4 ? 32 : 128)) return undefined;
  return `${address}/${prefix}`;
}

/** Matches caller addresses against a key's whitelist entries. */
export class Whitelist {
  private readonly exact = new Set<string>();
  private readonly ranges = new BlockList();

  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const slash = entry.indexOf("/");
      if (slash < 0) {
        this.exact.add(entry);
      } else {
        const address = entry.slice(0, slash);
        this.ranges.addSubnet(address, Number(entry.slice(slash + 1)), isIP(address) === 4 ? "ipv4" : "ipv6");
      }
    }
  }

  allows(callerAddress: string): boolean {
    const address = canonicalAddress(callerAddress);
    if (address === undefined) return false;
    if (this.exact.has(address)) return true;
    return this.ranges.check(address, isIP(address) === 4 ? "ipv4" : "ipv6");
  }
}
