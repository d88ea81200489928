/**
 * A PostgreSQL table of `serve` that goes away while serving (a restore with --clean, a migration, an
 * operator's mistake) is answered 503 with Retry-After, as SQLite answers a table gone, never 500; and
 * served again once it is back.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { beforeEach, describe, expect, it } from "vitest";
import { FRESHNESS_MS } from "../../src/server/store/types";
import { postgresBackend } from "../helpers/backends";
import { httpGet } from "../helpers/http";
import { runInProcess } from "../helpers/run-cli-in-process";
import { serveDatabase } from "../helpers/serve";
import { tempDir } from "../helpers/temp";

const postgres = await postgresBackend();
beforeEach((context) => postgres.skipUnavailable(context));

const LINE = {
  advertiser: "Acme",
  campaign_id: 1,
  campaign: "Spring",
  ad_id: 10,
  ad: "Banner A",
  hour: "2026-11-01T13:00:00Z",
  views: 120,
  clicks: 7,
  bot_clicks: 1,
  spending: 3.25,
  conversions: 1,
};

async function sql(db: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: db });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

describe("a table gone while serving", () => {
  it("is answered 503 with Retry-After, never 500, and served again once it is back", async () => {
    const db = await postgres.newDb();
    const file = join(tempDir(), "d.ndjson");
    writeFileSync(file, `${JSON.stringify(LINE)}\n`);
    expect((await runInProcess(["serve", "init", "--db", db])).code).toBe(0);
    expect((await runInProcess(["serve", "load", "--db", db, file])).code).toBe(0);
    const key = (
      await runInProcess(["serve", "key", "issue", "--db", db, "--advertiser", "Acme", "--ip", "127.0.0.1"])
    ).stdout.trim();
    let clock = 0;
    const served = await serveDatabase(db, { serve: { nowMs: () => clock, notice: () => undefined } });
    const report = (dimensions: string) =>
      httpGet(`${served.url}/v1/report?from=2026-10-01&to=2026-11-29T23:59:59Z&metrics=views${dimensions}`, { key });
    expect((await report("&dimensions=campaign")).status).toBe(200);
    await sql(db, "ALTER TABLE campaign_days RENAME TO campaign_days_away");
    clock += FRESHNESS_MS;
    const down = await report("&dimensions=campaign,date");
    expect(down.status).toBe(503);
    expect(down.headers["retry-after"]).toBe("1");
    await sql(db, "ALTER TABLE campaign_days_away RENAME TO campaign_days");
    clock += 1_000;
    expect((await report("&dimensions=campaign,date")).status).toBe(200);
  });
});
