/**
 * A database of an older layout, made by adreport before the counters were recorded (schema version 1,
 * test/server/fixtures/), on both backends: refused by `serve` and every operator verb with the command
 * that upgrades it, left as it was; `serve upgrade` brings it to this version in place, in one transaction,
 * after which it answers exactly as a database made now. A counter the table has and a database lacks is
 * a column the upgrade adds; a database of a newer adreport is refused as such.
 */
import { createHash } from "node:crypto";
import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { beforeEach, describe, expect, it } from "vitest";
import { type TestBackend, testBackends } from "../helpers/backends";
import { httpGet } from "../helpers/http";
import { runInProcess } from "../helpers/run-cli-in-process";
import { serveDatabase } from "../helpers/serve";
import { tempDir } from "../helpers/temp";

const FIXTURES = join(import.meta.dirname, "fixtures");
/** The demo data set both fixtures hold (fixtures/README.md). */
const DEMO = ["--seed", "7", "--days", "1", "--end", "2026-11-01", "--advertisers", "1", "--campaigns", "1"];
const DEMO_SIZE = ["--ads", "1", "--keywords", "1"];

const REPORTS = [
  "metrics=views,clicks,conversions,spending",
  "metrics=views,clicks,conversions,spending&dimensions=campaign",
  "metrics=spending,clicks,views,conversions&dimensions=ad,date&granularity=hour",
  "metrics=views,clicks,spending&dimensions=keyword",
  "metrics=conversions,views&dimensions=date&granularity=day",
].map((q) => `/v1/report?from=2026-10-30&to=2026-10-31T23:59:59Z&${q}`);

/** Runs SQL on either backend, in one transaction. */
async function sql(db: string, text: string): Promise<void> {
  if (!db.startsWith("postgres")) {
    const { default: Database } = await import("better-sqlite3");
    const file = new Database(db);
    try {
      file.exec(`BEGIN; ${text}; COMMIT;`);
    } finally {
      file.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: db });
  await client.connect();
  try {
    await client.query(`BEGIN; ${text}; COMMIT;`);
  } finally {
    await client.end();
  }
}

async function schemaInfo(db: string): Promise<Record<string, string>> {
  let rows: Array<{ key: string; value: string }>;
  if (db.startsWith("postgres")) {
    const client = new pg.Client({ connectionString: db });
    await client.connect();
    rows = (await client.query("SELECT key, value FROM schema_info")).rows;
    await client.end();
  } else {
    const { default: Database } = await import("better-sqlite3");
    const file = new Database(db, { readonly: true });
    rows = file.prepare("SELECT key, value FROM schema_info").all() as typeof rows;
    file.close();
  }
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}

/** A database of schema version 1 as adreport made it then: the SQLite file copied, the dump restored. */
async function versionOne(backend: TestBackend): Promise<string> {
  if (backend.name === "sqlite") {
    const path = join(tempDir(), "v1.db");
    copyFileSync(join(FIXTURES, "schema-v1.sqlite"), path);
    return path;
  }
  const url = await backend.newDb();
  const dump = readFileSync(join(FIXTURES, "schema-v1-postgres.sql"), "utf8");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(dump);
  } finally {
    await client.end();
  }
  return url;
}

async function ok(args: string[]): Promise<string> {
  const result = await runInProcess(args);
  expect(result.code, result.stderr).toBe(0);
  return result.stderr;
}

/** Every report of REPORTS as served from `db`, with a key issued now. */
async function answers(db: string): Promise<string[]> {
  const issue = ["serve", "key", "issue", "--db", db, "--advertiser", "Acme Outdoor", "--ip", "127.0.0.1"];
  const key = (await runInProcess(issue)).stdout;
  const { url } = await serveDatabase(db);
  const texts: string[] = [];
  for (const path of REPORTS) {
    const answer = await httpGet(`${url}${path}`, { key: key.trim() });
    expect(answer.status, answer.text).toBe(200);
    texts.push(answer.text);
  }
  return texts;
}

const fileHash = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

describe.each(await testBackends())("a database of schema version 1 on $name", (backend) => {
  beforeEach((context) => backend.skipUnavailable(context));

  it("is refused by serve and every operator verb, with the command that upgrades it, and left as it was", async () => {
    const db = await versionOne(backend);
    const before = backend.name === "sqlite" ? fileHash(db) : "";
    const label = db.replace(/^(postgres:\/\/[^:@/]+):[^@]*@/, "$1:***@");
    const verbs = [
      ["serve", "--db", db, "--port", "0"],
      ["serve", "init", "--db", db],
      ["serve", "key", "list", "--db", db],
      ["serve", "key", "issue", "--db", db, "--advertiser", "Acme Outdoor"],
      ["serve", "demo", "--db", db, ...DEMO, ...DEMO_SIZE],
    ];
    for (const args of verbs) {
      const refused = await runInProcess(args);
      expect(refused.code, args.join(" ")).toBe(2);
      expect(refused.stdout).toBe("");
      expect(refused.stderr).toBe(
        `adreport: ${label} holds serve's data in schema version 1; this adreport reads version 2\n` +
          `hint: upgrade it in place: adreport serve upgrade --db ${label}\n`,
      );
    }
    expect(await schemaInfo(db)).toEqual({ version: "1" });
    if (backend.name === "sqlite") expect(fileHash(db)).toBe(before);
  });

  it("is upgraded in place by serve upgrade, then answers as a database made now, its keys kept", async () => {
    const db = await versionOne(backend);
    expect(await ok(["serve", "upgrade", "--db", db])).toMatch(/ upgraded from schema version 1 to 2\n$/);
    expect(await schemaInfo(db)).toEqual({
      version: "2",
      counters: "views,clicks,bot_clicks,conversions,spending_micros",
    });
    expect(await ok(["serve", "upgrade", "--db", db])).toMatch(/ is up to date \(schema version 2\)\n$/);
    const keys = await runInProcess(["serve", "key", "list", "--db", db, "--format", "json"]);
    expect(keys.code, keys.stderr).toBe(0);
    expect(JSON.parse(keys.stdout)).toMatchObject([
      { id: 1, advertiser: "Acme Outdoor", status: "active", ips: ["127.0.0.1"] },
    ]);

    const made = await backend.newDb();
    await ok(["serve", "demo", "--db", made, ...DEMO, ...DEMO_SIZE]);
    expect(await answers(db)).toEqual(await answers(made));
  });

  it("is upgraded once when two upgrades run at once", async () => {
    const db = await versionOne(backend);
    const both = await Promise.all([1, 2].map(() => runInProcess(["serve", "upgrade", "--db", db])));
    expect(both.map((r) => r.code)).toEqual([0, 0]);
    const said = both.map((r) => r.stderr.replace(/^.* (upgraded|is up to date).*\n$/s, "$1")).sort();
    expect(said).toEqual(["is up to date", "upgraded"]);
  });
});

describe.each(await testBackends())("a layout other than this adreport's on $name", (backend) => {
  beforeEach((context) => backend.skipUnavailable(context));

  /** A database made now, then as one made before the counter `conversions` existed: column and record gone. */
  async function withoutConversions(tables: string[]): Promise<string> {
    const db = await backend.newDb();
    await ok(["serve", "demo", "--db", db, ...DEMO, ...DEMO_SIZE]);
    const drops = tables.map((t) => `ALTER TABLE ${t} DROP COLUMN conversions`).join("; ");
    await sql(
      db,
      `${drops}; UPDATE schema_info SET value = 'views,clicks,bot_clicks,spending_micros' WHERE key = 'counters'`,
    );
    return db;
  }
  const COUNTED = ["ad_hours", "ad_days", "campaign_days", "campaign_hours"];

  it("lacking a counter of the table: refused, then the upgrade adds its column, at 0 for the hours loaded", async () => {
    const db = await withoutConversions(COUNTED);
    const refused = await runInProcess(["serve", "key", "list", "--db", db]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      / holds serve's data in a layout without the counters conversions, which this adreport stores\nhint: upgrade it in place/,
    );
    expect(await ok(["serve", "upgrade", "--db", db])).toMatch(
      / upgraded from schema version 2 to 2; counters added, at 0 for the hours loaded: conversions\n$/,
    );
    expect((await schemaInfo(db)).counters).toBe("views,clicks,bot_clicks,conversions,spending_micros");
    const [total] = await answers(db);
    expect(JSON.parse(total as string).data[0].metrics.conversions).toBe(0);
    expect(JSON.parse(total as string).data[0].metrics.views).toBeGreaterThan(0);
  });

  it("an upgrade that fails part way keeps nothing of it", async () => {
    // campaign_hours still has the column: adding it there fails after the tables before it had theirs.
    const db = await withoutConversions(["ad_hours", "ad_days", "campaign_days"]);
    const failed = await runInProcess(["serve", "upgrade", "--db", db]);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toMatch(/^adreport: cannot upgrade .*; nothing of it was kept\n$/);
    expect((await schemaInfo(db)).counters).toBe("views,clicks,bot_clicks,spending_micros");
    // Holds only if the column added to ad_hours before the failure went with it.
    await sql(db, "ALTER TABLE ad_hours ADD COLUMN conversions INT NOT NULL DEFAULT 0");
  });

  it("of a newer adreport: refused, by serve upgrade too, naming it", async () => {
    const db = await backend.newDb();
    await ok(["serve", "init", "--db", db]);
    await sql(db, "UPDATE schema_info SET value = '3' WHERE key = 'version'");
    for (const args of [
      ["serve", "key", "list", "--db", db],
      ["serve", "upgrade", "--db", db],
    ]) {
      const refused = await runInProcess(args);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(
        / was made by a newer adreport: it holds schema version 3; this adreport reads up to version 2\nhint: use that adreport/,
      );
    }
    await sql(
      db,
      "UPDATE schema_info SET value = '2' WHERE key = 'version'; UPDATE schema_info SET value = value || ',reach' WHERE key = 'counters'",
    );
    const refused = await runInProcess(["serve", "--db", db, "--port", "0"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      / was made by a newer adreport: it holds counters this adreport does not know \(reach\)\n/,
    );
  });
});
