/**
 * A name holding a lone UTF-16 surrogate (valid JSON: "\ud800") is stored as U+FFFD on both backends, so
 * both answer the same bytes, and valid UTF-8. SQLite kept the surrogate's three bytes (ED A0 80), which are
 * not UTF-8: its answer held them, where PostgreSQL's held U+FFFD.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { testBackends } from "../helpers/backends";
import { httpGet } from "../helpers/http";
import { runInProcess } from "../helpers/run-cli-in-process";
import { serveInProcess } from "../helpers/serve-in-process";
import { tempDir } from "../helpers/temp";

const line = (name: string) =>
  JSON.stringify({
    advertiser: `Adv ${name}`,
    campaign_id: 1,
    campaign: `C ${name}`,
    ad_id: 2,
    ad: `A ${name}`,
    hour: "2026-10-01T05:00:00Z",
    views: 3,
    clicks: 1,
    bot_clicks: 0,
    conversions: 0,
    spending: 0.5,
  });

describe.each(await testBackends())("on $name", (backend) => {
  beforeEach((context) => backend.skipUnavailable(context));

  it("stores and serves a lone surrogate in a name as U+FFFD", async () => {
    const db = await backend.newDb();
    const file = join(tempDir(), "lone.ndjson");
    writeFileSync(file, `${line("lone\ud800x\udc00y")}\n`);
    expect((await runInProcess(["serve", "init", "--db", db])).code).toBe(0);
    expect((await runInProcess(["serve", "load", file, "--db", db])).code).toBe(0);
    const advertiser = "Adv lone\ufffdx\ufffdy";
    const issued = await runInProcess([
      "serve",
      "key",
      "issue",
      "--db",
      db,
      "--advertiser",
      advertiser,
      "--ip",
      "127.0.0.1",
    ]);
    expect(issued.code).toBe(0);
    const serve = await serveInProcess(["--db", db, "--quiet"]);
    const answer = await httpGet(
      `${serve.url}/v1/report?from=2026-10-01T00:00:00Z&to=2026-10-02T00:00:00Z&metrics=views&dimensions=ad`,
      { key: issued.stdout.trim() },
    );
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('"name":"A lone\ufffdx\ufffdy"');
    await serve.stop();
  });
});
