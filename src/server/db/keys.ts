/**
 * API keys: made with a CSPRNG, shown once, stored only as a SHA-256 hash (a 256-bit random key needs no
 * slow hash), each bound to one advertiser and an IP whitelist, optionally expiring.
 */
import { createHash, randomBytes } from "node:crypto";
import { maskKey } from "../../core/mask-key";
import { canonicalEntry } from "./ip";
import type { Db } from "./schema";

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

export function normaliseIps(ips: readonly string[]): string[] {
  return ips.map((ip) => {
    const entry = canonicalEntry(ip);
    if (!entry) throw new KeyAdminError(`${JSON.stringify(ip)} is not an IPv4 or IPv6 address or CIDR range`);
    return entry;
  });
}

export interface IssuedKey {
  id: number;
  key: string;
  advertiser: string;
  ips: string[];
  expiresAt: number | undefined;
}

function advertiserId(db: Db, name: string): number {
  const row = db.prepare<[string], { id: number }>("SELECT id FROM advertisers WHERE name = ?").get(name);
  if (row) return row.id;
  const known = db.prepare<[], { name: string }>("SELECT name FROM advertisers ORDER BY name").all();
  const list = known.length > 0 ? known.map((k) => JSON.stringify(k.name)).join(", ") : "none yet: load data first";
  throw new KeyAdminError(`no advertiser named ${JSON.stringify(name)}; known advertisers: ${list}`);
}

export function issueKey(
  db: Db,
  request: { advertiser: string; ips: readonly string[]; expiresAt?: number | undefined; now: number },
): IssuedKey {
  const ips = normaliseIps(request.ips);
  const owner = advertiserId(db, request.advertiser);
  const key = newKey();
  const insert = db.transaction(() => {
    const id = Number(
      db
        .prepare("INSERT INTO api_keys (advertiser_id, hash, hint, created_at, expires_at) VALUES (?, ?, ?, ?, ?)")
        .run(owner, hashKey(key), maskKey(key), request.now, request.expiresAt ?? null).lastInsertRowid,
    );
    const addIp = db.prepare("INSERT OR IGNORE INTO key_ips (key_id, ip) VALUES (?, ?)");
    for (const ip of ips) addIp.run(id, ip);
    return id;
  });
  return { id: insert(), key, advertiser: request.advertiser, ips, expiresAt: request.expiresAt };
}

interface KeyRow {
  id: number;
  advertiser: string;
  hint: string;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  replaced_by: number | null;
}

function keyRow(db: Db, id: number): KeyRow {
  const row = db
    .prepare<[number], KeyRow>(
      `SELECT k.id, a.name AS advertiser, k.hint, k.created_at, k.expires_at, k.revoked_at, k.replaced_by
       FROM api_keys k JOIN advertisers a ON a.id = k.advertiser_id WHERE k.id = ?`,
    )
    .get(id);
  if (!row) throw new KeyAdminError(`no key with id ${id} (see \`adreport serve key list\`)`);
  return row;
}

function ipsOf(db: Db, id: number): string[] {
  return db
    .prepare<[number], { ip: string }>("SELECT ip FROM key_ips WHERE key_id = ? ORDER BY ip")
    .all(id)
    .map((r) => r.ip);
}

/** A new key for the same advertiser, whitelist and expiry; the old one stops working now. */
export function rotateKey(db: Db, id: number, now: number): IssuedKey {
  const old = keyRow(db, id);
  if (old.revoked_at !== null) throw new KeyAdminError(`key ${id} is revoked already; issue a new one instead`);
  return db.transaction(() => {
    const issued = issueKey(db, {
      advertiser: old.advertiser,
      ips: ipsOf(db, id),
      expiresAt: old.expires_at ?? undefined,
      now,
    });
    db.prepare("UPDATE api_keys SET revoked_at = ?, replaced_by = ? WHERE id = ?").run(now, issued.id, id);
    return issued;
  })();
}

export function revokeKey(db: Db, id: number, now: number): void {
  const row = keyRow(db, id);
  if (row.revoked_at !== null) return;
  db.prepare("UPDATE api_keys SET revoked_at = ? WHERE id = ?").run(now, id);
}

export function addIps(db: Db, id: number, ips: readonly string[]): string[] {
  keyRow(db, id);
  const entries = normaliseIps(ips);
  const add = db.prepare("INSERT OR IGNORE INTO key_ips (key_id, ip) VALUES (?, ?)");
  db.transaction(() => {
    for (const ip of entries) add.run(id, ip);
  })();
  return ipsOf(db, id);
}

export function removeIps(db: Db, id: number, ips: readonly string[]): string[] {
  keyRow(db, id);
  const entries = normaliseIps(ips);
  const current = new Set(ipsOf(db, id));
  const missing = entries.filter((ip) => !current.has(ip));
  if (missing.length > 0) throw new KeyAdminError(`key ${id} has no whitelist entry ${missing.join(", ")}`);
  const remove = db.prepare("DELETE FROM key_ips WHERE key_id = ? AND ip = ?");
  db.transaction(() => {
    for (const ip of entries) remove.run(id, ip);
  })();
  return ipsOf(db, id);
}

export interface KeyListing {
  id: number;
  advertiser: string;
  hint: string;
  createdAt: number;
  expiresAt: number | undefined;
  status: "active" | "expired" | "revoked";
  replacedBy: number | undefined;
  ips: string[];
}

export function listKeys(db: Db, now: number): KeyListing[] {
  const rows = db
    .prepare<[], KeyRow>(
      `SELECT k.id, a.name AS advertiser, k.hint, k.created_at, k.expires_at, k.revoked_at, k.replaced_by
       FROM api_keys k JOIN advertisers a ON a.id = k.advertiser_id ORDER BY k.id`,
    )
    .all();
  return rows.map((r) => ({
    id: r.id,
    advertiser: r.advertiser,
    hint: r.hint,
    createdAt: r.created_at,
    expiresAt: r.expires_at ?? undefined,
    status: r.revoked_at !== null ? "revoked" : r.expires_at !== null && r.expires_at <= now ? "expired" : "active",
    replacedBy: r.replaced_by ?? undefined,
    ips: ipsOf(db, r.id),
  }));
}
