/** API keys in PostgreSQL: the same rules as db/keys.ts (hashed, masked hint, one advertiser, a whitelist). */
import type pg from "pg";
import { maskKey } from "../../core/mask-key";
import type { IssueRequest } from "../backend";
import { hashKey, type IssuedKey, KeyAdminError, type KeyListing, newKey, normaliseIps } from "../db/keys";

interface KeyRow {
  id: number;
  advertiser: string;
  hint: string;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  replaced_by: number | null;
}

const KEY_COLUMNS = `SELECT k.id, a.name AS advertiser, k.hint, k.created_at, k.expires_at, k.revoked_at, k.replaced_by
  FROM api_keys k JOIN advertisers a ON a.id = k.advertiser_id`;

async function advertiserId(client: pg.ClientBase, name: string): Promise<number> {
  const row = (await client.query<{ id: number }>("SELECT id FROM advertisers WHERE name = $1", [name])).rows[0];
  if (row) return row.id;
  const known = (await client.query<{ name: string }>('SELECT name FROM advertisers ORDER BY name COLLATE "C"')).rows;
  const list = known.length > 0 ? known.map((k) => JSON.stringify(k.name)).join(", ") : "none yet: load data first";
  throw new KeyAdminError(`no advertiser named ${JSON.stringify(name)}; known advertisers: ${list}`);
}

async function keyRow(client: pg.ClientBase, id: number): Promise<KeyRow> {
  const row = (await client.query<KeyRow>(`${KEY_COLUMNS} WHERE k.id = $1`, [id])).rows[0];
  if (!row) throw new KeyAdminError(`no key with id ${id} (see \`adreport serve key list\`)`);
  return row;
}

async function ipsOf(client: pg.ClientBase, id: number): Promise<string[]> {
  const rows = (
    await client.query<{ ip: string }>('SELECT ip FROM key_ips WHERE key_id = $1 ORDER BY ip COLLATE "C"', [id])
  ).rows;
  return rows.map((r) => r.ip);
}

async function addIpRows(client: pg.ClientBase, id: number, ips: readonly string[]): Promise<void> {
  if (ips.length === 0) return;
  await client.query("INSERT INTO key_ips (key_id, ip) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING", [
    id,
    [...ips],
  ]);
}

/** Call within a transaction holding the write lock. */
export async function issueKey(client: pg.ClientBase, request: IssueRequest): Promise<IssuedKey> {
  const ips = normaliseIps(request.ips);
  const owner = await advertiserId(client, request.advertiser);
  const key = newKey();
  const inserted = await client.query<{ id: number }>(
    "INSERT INTO api_keys (advertiser_id, hash, hint, created_at, expires_at) VALUES ($1, $2, $3, $4, $5) RETURNING id",
    [owner, hashKey(key), maskKey(key), request.now, request.expiresAt ?? null],
  );
  const id = inserted.rows[0]?.id as number;
  await addIpRows(client, id, ips);
  return { id, key, advertiser: request.advertiser, ips, expiresAt: request.expiresAt };
}

export async function rotateKey(client: pg.ClientBase, id: number, now: number): Promise<IssuedKey> {
  const old = await keyRow(client, id);
  if (old.revoked_at !== null) throw new KeyAdminError(`key ${id} is revoked already; issue a new one instead`);
  const issued = await issueKey(client, {
    advertiser: old.advertiser,
    ips: await ipsOf(client, id),
    expiresAt: old.expires_at ?? undefined,
    now,
  });
  await client.query("UPDATE api_keys SET revoked_at = $1, replaced_by = $2 WHERE id = $3", [now, issued.id, id]);
  return issued;
}

export async function revokeKey(client: pg.ClientBase, id: number, now: number): Promise<void> {
  const row = await keyRow(client, id);
  if (row.revoked_at !== null) return;
  await client.query("UPDATE api_keys SET revoked_at = $1 WHERE id = $2", [now, id]);
}

export async function addIps(client: pg.ClientBase, id: number, ips: readonly string[]): Promise<string[]> {
  await keyRow(client, id);
  await addIpRows(client, id, normaliseIps(ips));
  return await ipsOf(client, id);
}

export async function removeIps(client: pg.ClientBase, id: number, ips: readonly string[]): Promise<string[]> {
  await keyRow(client, id);
  const entries = normaliseIps(ips);
  const current = new Set(await ipsOf(client, id));
  const missing = entries.filter((ip) => !current.has(ip));
  if (missing.length > 0) throw new KeyAdminError(`key ${id} has no whitelist entry ${missing.join(", ")}`);
  await client.query("DELETE FROM key_ips WHERE key_id = $1 AND ip = ANY($2::text[])", [id, entries]);
  return await ipsOf(client, id);
}

export async function listKeys(client: pg.ClientBase, now: number): Promise<KeyListing[]> {
  const rows = (await client.query<KeyRow>(`${KEY_COLUMNS} ORDER BY k.id`)).rows;
  const ips = (
    await client.query<{ key_id: number; ip: string }>('SELECT key_id, ip FROM key_ips ORDER BY key_id, ip COLLATE "C"')
  ).rows;
  const byKey = new Map<number, string[]>();
  for (const r of ips) byKey.set(r.key_id, [...(byKey.get(r.key_id) ?? []), r.ip]);
  return rows.map((r) => ({
    id: r.id,
    advertiser: r.advertiser,
    hint: r.hint,
    createdAt: r.created_at,
    expiresAt: r.expires_at ?? undefined,
    status: r.revoked_at !== null ? "revoked" : r.expires_at !== null && r.expires_at <= now ? "expired" : "active",
    replacedBy: r.replaced_by ?? undefined,
    ips: byKey.get(r.id) ?? [],
  }));
}
