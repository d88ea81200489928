/**
 * Facts into PostgreSQL with the rules of sqlite/writer.ts, in set operations rather than a statement a fact:
 * the facts are staged in batches into a temporary table (kept by the server, not in memory), checked for
 * contradictions (an entity moving to another parent), then merged (the last line of an hour wins, a new
 * name renames) and the rollups of the touched days recomputed, all in the caller's transaction.
 */
import type pg from "pg";
import { COUNTERS, type Counts } from "../model/counters";
import { ConflictError } from "../model/errors";
import { POSTGRES_DIALECT } from "../sql/dialect";
import { AD_HOUR_COLUMNS, AD_HOUR_UPSERT, KEYWORD_HOUR_COLUMNS, KEYWORD_HOUR_UPSERT } from "../sql/fact-sql";
import { recomputeRollupsSql, touchedTablesSql } from "../sql/rollup-sql";
import type { FactBatches, NumberedLine, WriteResult } from "../store/types";

/** Facts a staging statement carries: large enough to amortise the round trip, small in memory. */
const BATCH = 5000;

/** The staged columns before the counters (a keyword's are null on an ad's line), and their types. */
const STAGED = [
  ["seq", "bigint NOT NULL"],
  ["at", "bigint NOT NULL"],
  ["kind", "smallint NOT NULL"],
  ["advertiser", "text NOT NULL"],
  ["campaign_id", "bigint NOT NULL"],
  ["campaign", "text NOT NULL"],
  ["ad_id", "bigint NOT NULL"],
  ["ad", "text NOT NULL"],
  ["keyword_id", "bigint"],
  ["keyword", "text"],
  ["hour", "bigint NOT NULL"],
  ...COUNTERS.map((c) => [c.column, "bigint NOT NULL"]),
] as const;

const STAGE_SQL = `CREATE TEMP TABLE staged_facts (${STAGED.map(([name, type]) => `${name} ${type}`).join(", ")}) ON COMMIT DROP`;

const INSERT_BATCH_SQL = `INSERT INTO staged_facts SELECT * FROM unnest(${STAGED.map(
  ([, type], i) => `$${i + 1}::${type.split(" ")[0]}[]`,
).join(", ")})`;

/**
 * The first staged fact that contradicts the database or an earlier fact, as the SQLite writer would meet
 * it: by position, and within one fact the campaign before the ad before the keyword.
 */
const CONFLICT_SQL = `
WITH campaign_owner AS (
  SELECT DISTINCT ON (campaign_id) campaign_id, advertiser FROM staged_facts ORDER BY campaign_id, seq),
ad_owner AS (
  SELECT DISTINCT ON (ad_id) ad_id, campaign_id FROM staged_facts ORDER BY ad_id, seq),
keyword_owner AS (
  SELECT DISTINCT ON (keyword_id) keyword_id, ad_id FROM staged_facts WHERE kind = 1 ORDER BY keyword_id, seq),
conflicts AS (
  SELECT s.seq, s.at, 0 AS rank, 'campaign ' || s.campaign_id || ' already belongs to another advertiser' AS message
  FROM staged_facts s JOIN campaign_owner o USING (campaign_id)
    LEFT JOIN campaigns c ON c.id = s.campaign_id LEFT JOIN advertisers a ON a.id = c.advertiser_id
  WHERE s.advertiser <> coalesce(a.name, o.advertiser)
  UNION ALL
  SELECT s.seq, s.at, 1, 'ad ' || s.ad_id || ' already belongs to another campaign'
  FROM staged_facts s JOIN ad_owner o USING (ad_id) LEFT JOIN ads d ON d.id = s.ad_id
  WHERE s.campaign_id <> coalesce(d.campaign_id, o.campaign_id)
  UNION ALL
  SELECT s.seq, s.at, 2, 'keyword ' || s.keyword_id || ' already belongs to another ad'
  FROM staged_facts s JOIN keyword_owner o USING (keyword_id) LEFT JOIN keywords k ON k.id = s.keyword_id
  WHERE s.kind = 1 AND s.ad_id <> coalesce(k.ad_id, o.ad_id))
SELECT at, message FROM conflicts ORDER BY seq, rank LIMIT 1`;

const MERGE_SQL = `
INSERT INTO advertisers (name)
  SELECT advertiser FROM staged_facts GROUP BY advertiser ORDER BY min(seq)
  ON CONFLICT (name) DO NOTHING;
INSERT INTO campaigns (id, advertiser_id, name)
  SELECT DISTINCT ON (s.campaign_id) s.campaign_id, a.id, s.campaign
  FROM staged_facts s JOIN advertisers a ON a.name = s.advertiser ORDER BY s.campaign_id, s.seq DESC
  ON CONFLICT (id) DO UPDATE SET name = excluded.name WHERE campaigns.name <> excluded.name;
INSERT INTO ads (id, campaign_id, name)
  SELECT DISTINCT ON (ad_id) ad_id, campaign_id, ad FROM staged_facts ORDER BY ad_id, seq DESC
  ON CONFLICT (id) DO UPDATE SET name = excluded.name WHERE ads.name <> excluded.name;
INSERT INTO keywords (id, ad_id, name)
  SELECT DISTINCT ON (keyword_id) keyword_id, ad_id, keyword FROM staged_facts WHERE kind = 1 ORDER BY keyword_id, seq DESC
  ON CONFLICT (id) DO UPDATE SET name = excluded.name WHERE keywords.name <> excluded.name;

INSERT INTO ad_hours (${AD_HOUR_COLUMNS})
  SELECT DISTINCT ON (ad_id, hour) ${AD_HOUR_COLUMNS}
  FROM staged_facts WHERE kind = 0 ORDER BY ad_id, hour, seq DESC
  ${AD_HOUR_UPSERT};
INSERT INTO keyword_hours (${KEYWORD_HOUR_COLUMNS})
  SELECT DISTINCT ON (keyword_id, hour) ${KEYWORD_HOUR_COLUMNS}
  FROM staged_facts WHERE kind = 1 ORDER BY keyword_id, hour, seq DESC
  ${KEYWORD_HOUR_UPSERT};

${touchedTablesSql(POSTGRES_DIALECT)}
INSERT INTO touched_ad_days (ad_id, day) SELECT DISTINCT ad_id, hour - hour % 86400 FROM staged_facts WHERE kind = 0;
INSERT INTO touched_keyword_days (keyword_id, day)
  SELECT DISTINCT keyword_id, hour - hour % 86400 FROM staged_facts WHERE kind = 1;
${recomputeRollupsSql(POSTGRES_DIALECT)}
`;

/** PostgreSQL text cannot hold U+0000; SQLite can. Such a name is refused by line rather than failing the batch. */
function checkNames(entry: NumberedLine): void {
  const f = entry.line.fact;
  const names = [f.advertiser, f.campaign, f.ad, entry.line.kind === "keyword" ? entry.line.fact.keyword : ""];
  if (names.some((name) => name.includes("\u0000"))) {
    const error = new ConflictError("a name holds the character U+0000, which PostgreSQL cannot store");
    error.at = entry.at;
    throw error;
  }
}

class Batch {
  readonly columns: unknown[][] = Array.from({ length: STAGED.length }, () => []);
  size = 0;

  add(seq: number, entry: NumberedLine): void {
    const { line, at } = entry;
    const f = line.fact;
    const keyword = line.kind === "keyword" ? line.fact : undefined;
    const values = [
      seq,
      at,
      keyword ? 1 : 0,
      f.advertiser,
      f.campaignId,
      f.campaign,
      f.adId,
      f.ad,
      keyword?.keywordId ?? null,
      keyword?.keyword ?? null,
      f.hour,
      // A counter keyword facts do not have is staged as 0, and never merged into keyword_hours.
      ...COUNTERS.map((c) => (f.counts as Partial<Counts>)[c.name] ?? 0),
    ];
    values.forEach((value, i) => {
      (this.columns[i] as unknown[]).push(value);
    });
    this.size += 1;
  }
}

async function firstConflict(client: pg.ClientBase): Promise<ConflictError | undefined> {
  const row = (await client.query<{ at: number; message: string }>(CONFLICT_SQL)).rows[0];
  if (!row) return undefined;
  const error = new ConflictError(row.message);
  error.at = row.at;
  return error;
}

/** Writes the facts in the caller's transaction, which must hold the write lock. */
export async function writeFacts(client: pg.ClientBase, batches: FactBatches): Promise<WriteResult> {
  const result: WriteResult = { adHours: 0, keywordHours: 0 };
  await client.query(STAGE_SQL);
  let batch = new Batch();
  let seq = 0;
  const flush = async () => {
    if (batch.size === 0) return;
    await client.query(INSERT_BATCH_SQL, batch.columns);
    batch = new Batch();
  };
  try {
    for await (const facts of batches) {
      for (const entry of facts) {
        checkNames(entry);
        seq += 1;
        batch.add(seq, entry);
        if (entry.line.kind === "ad") result.adHours += 1;
        else result.keywordHours += 1;
      }
      if (batch.size >= BATCH) await flush();
    }
  } catch (error) {
    // A bad line after a contradiction: the contradiction came first, as SQLite's writer would report it.
    let conflict: ConflictError | undefined;
    try {
      await flush();
      conflict = await firstConflict(client);
    } catch {
      // The transaction failed with the batch: the error that stopped the facts is the one to tell.
    }
    throw conflict ?? error;
  }
  await flush();
  await client.query("ANALYZE staged_facts");
  const conflict = await firstConflict(client);
  if (conflict) throw conflict;
  if (seq > 0) await client.query(MERGE_SQL);
  return result;
}
