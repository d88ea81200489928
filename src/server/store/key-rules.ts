/**
 * The rules of API keys, whatever holds them: made with a CSPRNG, shown once, stored only as a SHA-256 hash
 * (a 256-bit random key needs no slow hash) with a masked hint, each bound to one advertiser and an IP
 * whitelist, optionally expiring.
 */
import { createHash, randomBytes } from "node:crypto";
import { canonicalEntry } from "../model/ip";

export const KEY_PATTERN = /^adr_[A-Za-z0-9_-]{43}$/;

export class KeyAdminError extends Error {
  override readonly name = "KeyAdminError";
}

export function hashKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

export function newKey(): string {
  return `adr_${randomBytes(32).toString("base64url")}`;
}

/** Whitelist entries in their canonical spelling; anything not an address or a range is refused. */
export function normaliseIps(ips: readonly string[]): string[] {
  return ips.map((ip) => {
    const entry = canonicalEntry(ip);
    if (!entry) throw new KeyAdminError(`${JSON.stringify(ip)} is not an IPv4 or IPv6 address or CIDR range`);
    return entry;
  });
}

export type KeyStatus = "active" | "expired" | "revoked";

/** A key works until it is revoked, or until its expiry (epoch seconds) is reached. */
export function keyStatus(key: { revokedAt: number | null; expiresAt: number | null }, now: number): KeyStatus {
  if (key.revokedAt !== null) return "revoked";
  return key.expiresAt !== null && key.expiresAt <= now ? "expired" : "active";
}

export interface IssuedKey {
  id: number;
  key: string;
  advertiser: string;
  ips: string[];
  expiresAt: number | undefined;
}

export interface KeyListing {
  id: number;
  advertiser: string;
  hint: string;
  createdAt: number;
  expiresAt: number | undefined;
  status: KeyStatus;
  replacedBy: number | undefined;
  ips: string[];
}

export interface IssueRequest {
  advertiser: string;
  ips: readonly string[];
  expiresAt?: number | undefined;
  now: number;
}

export function noAdvertiser(name: string, known: readonly string[]): KeyAdminError {
  const list = known.length > 0 ? known.map((k) => JSON.stringify(k)).join(", ") : "none yet: load data first";
  return new KeyAdminError(`no advertiser named ${JSON.stringify(name)}; known advertisers: ${list}`);
}

export function noKey(id: number): KeyAdminError {
  return new KeyAdminError(`no key with id ${id} (see \`adreport serve key list\`)`);
}
