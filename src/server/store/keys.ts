/**
 * The operator's key verbs, written once over SQL either backend runs (sql/key-sql.ts): each a rule run by
 * runSync on SQLite (key-rules.ts holds what a key is) or runAsync on PostgreSQL, in one transaction.
 */
import { maskKey } from "../../core/mask-key";
import type { SqlDialect, SqlParams } from "../sql/dialect";
import { keySql } from "../sql/key-sql";
import {
  hashKey,
  type IssuedKey,
  type IssueRequest,
  KeyAdminError,
  type KeyListing,
  keyStatus,
  newKey,
  noAdvertiser,
  noKey,
  normaliseIps,
} from "./key-rules";
import { type Awaitable, type Steps, step } from "./steps";

/** Runs statements on one connection, in the caller's transaction. */
export interface SqlRunner {
  readonly dialect: SqlDialect;
  all<R>(sql: string, params?: SqlParams): Awaitable<R[]>;
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

function* rows<R>(db: SqlRunner, sql: string, params?: SqlParams): Generator<unknown, R[], never> {
  return yield* step(db.all<R>(sql, params));
}

function* keyRow(db: SqlRunner, id: number): Steps<KeyRow> {
  const [row] = yield* rows<KeyRow>(db, keySql(db.dialect).key, { id });
  if (!row) throw noKey(id);
  return row;
}

function* ipsOf(db: SqlRunner, id: number): Steps<string[]> {
  return (yield* rows<{ ip: string }>(db, keySql(db.dialect).ips, { id })).map((r) => r.ip);
}

function* addIpRows(db: SqlRunner, id: number, ips: readonly string[]): Steps<void> {
  for (const ip of ips) yield* rows(db, keySql(db.dialect).addIp, { id, ip });
}

export function* issueKey(db: SqlRunner, request: IssueRequest): Steps<IssuedKey> {
  const sql = keySql(db.dialect);
  const ips = normaliseIps(request.ips);
  const [owner] = yield* rows<{ id: number }>(db, sql.advertiser, { name: request.advertiser });
  if (!owner) {
    const known = yield* rows<{ name: string }>(db, sql.advertiserNames);
    throw noAdvertiser(
      request.advertiser,
      known.map((k) => k.name),
    );
  }
  const key = newKey();
  const [inserted] = yield* rows<{ id: number }>(db, sql.insertKey, {
    owner: owner.id,
    hash: hashKey(key),
    hint: maskKey(key),
    now: request.now,
    expires: request.expiresAt ?? null,
  });
  const id = Number(inserted?.id);
  yield* addIpRows(db, id, ips);
  return { id, key, advertiser: request.advertiser, ips, expiresAt: request.expiresAt };
}

/** A new key for the same advertiser, whitelist and expiry; the old one stops working now. */
export function* rotateKey(db: SqlRunner, id: number, now: number): Steps<IssuedKey> {
  const old = yield* keyRow(db, id);
  if (old.revoked_at !== null) throw new KeyAdminError(`key ${id} is revoked already; issue a new one instead`);
  const issued = yield* issueKey(db, {
    advertiser: old.advertiser,
    ips: yield* ipsOf(db, id),
    expiresAt: old.expires_at ?? undefined,
    now,
  });
  yield* rows(db, keySql(db.dialect).replace, { now, by: issued.id, id });
  return issued;
}

export function* revokeKey(db: SqlRunner, id: number, now: number): Steps<void> {
  const row = yield* keyRow(db, id);
  if (row.revoked_at !== null) return;
  yield* rows(db, keySql(db.dialect).revoke, { now, id });
}

export function* addIps(db: SqlRunner, id: number, ips: readonly string[]): Steps<string[]> {
  yield* keyRow(db, id);
  yield* addIpRows(db, id, normaliseIps(ips));
  return yield* ipsOf(db, id);
}

export function* removeIps(db: SqlRunner, id: number, ips: readonly string[]): Steps<string[]> {
  yield* keyRow(db, id);
  const entries = normaliseIps(ips);
  const current = new Set(yield* ipsOf(db, id));
  const missing = entries.filter((ip) => !current.has(ip));
  if (missing.length > 0) throw new KeyAdminError(`key ${id} has no whitelist entry ${missing.join(", ")}`);
  for (const ip of entries) yield* rows(db, keySql(db.dialect).removeIp, { id, ip });
  return yield* ipsOf(db, id);
}

export function* listKeys(db: SqlRunner, now: number): Steps<KeyListing[]> {
  const sql = keySql(db.dialect);
  const keys = yield* rows<KeyRow>(db, sql.keys);
  const byKey = new Map<number, string[]>();
  for (const r of yield* rows<{ key_id: number; ip: string }>(db, sql.allIps)) {
    const ips = byKey.get(r.key_id);
    if (ips) ips.push(r.ip);
    else byKey.set(r.key_id, [r.ip]);
  }
  return keys.map((r) => ({
    id: r.id,
    advertiser: r.advertiser,
    hint: r.hint,
    createdAt: r.created_at,
    expiresAt: r.expires_at ?? undefined,
    status: keyStatus({ revokedAt: r.revoked_at, expiresAt: r.expires_at }, now),
    replacedBy: r.replaced_by ?? undefined,
    ips: byKey.get(r.id) ?? [],
  }));
}
