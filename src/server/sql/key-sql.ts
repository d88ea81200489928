/** The statements of API keys and ownership, the same on both backends (`@name` parameters, dialect.ts). */
import type { SqlDialect } from "./dialect";

const KEY_COLUMNS = `SELECT k.id, a.name AS advertiser, k.hint, k.created_at, k.expires_at, k.revoked_at, k.replaced_by
  FROM api_keys k JOIN advertisers a ON a.id = k.advertiser_id`;

const made = new Map<SqlDialect, ReturnType<typeof statements>>();

/** What the operator verbs run, in the dialect: store/keys.ts holds the rules around them. */
export function keySql(dialect: SqlDialect): ReturnType<typeof statements> {
  let sql = made.get(dialect);
  if (!sql) {
    sql = statements(dialect);
    made.set(dialect, sql);
  }
  return sql;
}

function statements(dialect: SqlDialect) {
  return {
    advertiser: "SELECT id FROM advertisers WHERE name = @name",
    advertiserNames: `SELECT name FROM advertisers ORDER BY name${dialect.bytewise}`,
    insertKey:
      "INSERT INTO api_keys (advertiser_id, hash, hint, created_at, expires_at) VALUES (@owner, @hash, @hint, @now, @expires) RETURNING id",
    addIp: `${dialect.insertIgnore("key_ips", "key_id, ip", "VALUES (@id, @ip)")}`,
    removeIp: "DELETE FROM key_ips WHERE key_id = @id AND ip = @ip",
    key: `${KEY_COLUMNS} WHERE k.id = @id`,
    keys: `${KEY_COLUMNS} ORDER BY k.id`,
    ips: `SELECT ip FROM key_ips WHERE key_id = @id ORDER BY ip${dialect.bytewise}`,
    allIps: `SELECT key_id, ip FROM key_ips ORDER BY key_id, ip${dialect.bytewise}`,
    revoke: "UPDATE api_keys SET revoked_at = @now WHERE id = @id",
    replace: "UPDATE api_keys SET revoked_at = @now, replaced_by = @by WHERE id = @id",
  };
}

/** What `serve` reads to authenticate and authorise a request. */
export const SERVE_SQL = {
  key: 'SELECT id, advertiser_id AS "advertiserId", expires_at AS "expiresAt", revoked_at AS "revokedAt" FROM api_keys WHERE hash = @hash',
  ips: "SELECT ip FROM key_ips WHERE key_id = @id",
  campaignAdvertiser: 'SELECT advertiser_id AS "advertiserId" FROM campaigns WHERE id = @id',
  adAdvertiser:
    'SELECT c.advertiser_id AS "advertiserId" FROM ads d JOIN campaigns c ON c.id = d.campaign_id WHERE d.id = @id',
};
