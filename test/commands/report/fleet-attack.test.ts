import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { queryPostgres, usePostgres } from "../../helpers/postgres";
import { type KeySpec, startTestService } from "../../helpers/serve";
import { startCliChild } from "../../helpers/spawn-cli";
import { tempDir } from "../../helpers/temp";

const postgres = usePostgres();
const names = ["a01", "a02", "a03", "a04"];
const LINE = [
  "report",
  "--all-profiles",
  "--dims",
  "campaign,date",
  "--incremental",
  "--start",
  "2026-10-01",
  "--table",
  "ads",
  "--summary",
  "json",
];

/** A host of its own (its own host name), its config naming every account with its key. */
function newHost(url: string, keys: readonly string[], hostName: string) {
  const home = tempDir("adreport-fleet-attack-");
  for (const sub of [".config/adreport", "tmp"]) mkdirSync(join(home, sub), { recursive: true, mode: 0o700 });
  const profiles = Object.fromEntries(names.map((name, i) => [name, { "api-key": keys[i], "base-url": url }]));
  writeFileSync(join(home, ".config/adreport/config.json"), JSON.stringify({ settings: {}, profiles }), {
    mode: 0o600,
  });
  const preload = join(home, "hostname.cjs");
  writeFileSync(
    preload,
    `const os = require("node:os"); os.hostname = () => ${JSON.stringify(hostName)}; require("node:module").syncBuiltinESMExports();\n`,
  );
  const env = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    TMPDIR: join(home, "tmp"),
    NODE_OPTIONS: `--require=${preload}`,
  };
  return (args: string[]) => startCliChild(args, { cwd: home, env });
}

async function service(faults = "", specs?: KeySpec[]) {
  const keys = specs ?? names.map(() => ({ advertiser: "Acme Outdoor", ips: ["127.0.0.1"] }));
  const started = await startTestService({ keys, faults });
  return { url: started.url, keys: started.keys, log: started.accessLog };
}

describe("a fleet attacked from outside", () => {
  it("a rerun within the round asking more days again (--lookback 30d, after a restatement) exports them, not skipped as done", async (context) => {
    const db = await postgres.database(context);
    const { url, keys, log } = await service();
    const first = await newHost(url, keys, "w1")([...LINE, "-o", db]).output;
    expect(first.code, first.stderr).toBe(0);
    const before = log.filter((line) => line.includes("/v1/report")).length;
    const again = await newHost(url, keys, "w2")([...LINE, "--lookback", "30d", "-o", db]).output;
    expect(again.code, again.stderr).toBe(0);
    const entries = (
      JSON.parse(again.stderr.trim().split("\n").pop() as string) as {
        accounts: Array<{ profile: string; outcome: string; days_written?: number }>;
      }
    ).accounts;
    for (const entry of entries) expect(entry, JSON.stringify(entry)).toMatchObject({ outcome: "ok" });
    expect(log.filter((line) => line.includes("/v1/report")).length).toBeGreaterThan(before);
    // The same line again at once (no more days asked) is of the round: done, nothing asked.
    const third = await newHost(url, keys, "w3")([...LINE, "--lookback", "30d", "-o", db]).output;
    expect(third.code, third.stderr).toBe(0);
    expect(third.stderr).toContain("done by pid");
  }, 60_000);
});

describe("a host's lock session ended by the server (pg_terminate_backend)", () => {
  it("that host says it lost its connection in our words (no driver text), the other exits 0, nothing written twice", async (context) => {
    const db = await postgres.database(context);
    const { url, keys } = await service("delay:300ms");
    const line = [...LINE, "--page-size", "5", "--account-concurrency", "1", "-o", db];
    const hosts = ["w1", "w2"].map((name) => newHost(url, keys, name)(line));
    let ended: unknown[] = [];
    const until = Date.now() + 30_000;
    while (ended.length === 0 && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      ended = await queryPostgres(
        db,
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE 'adreport % on w1'
          AND pid IN (SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted)`,
      ).catch(() => []);
    }
    expect(ended).toHaveLength(1);
    const [cut, other] = await Promise.all(hosts.map((host) => host.output));
    expect(other?.code, other?.stderr).toBe(0);
    expect(cut?.code, cut?.stderr).toBe(6);
    expect(cut?.stderr).toMatch(/^adreport: a0\d: lost the table adreport_jobs in postgres:\/\/.*: /m);
    expect(cut?.stderr).not.toMatch(/not queryable|Client has encountered/);
    const rerun = await newHost(url, keys, "w3")([...LINE, "-o", db]).output;
    expect(rerun.code, rerun.stderr).toBe(0);
    const twice = await queryPostgres(
      db,
      "SELECT profile FROM ads GROUP BY profile, campaign_id, date HAVING count(*) > 1",
    );
    expect(twice).toEqual([]);
    const profiles = await queryPostgres(db, "SELECT DISTINCT profile FROM ads ORDER BY 1");
    expect(profiles.map((row) => row.profile)).toEqual(names);
  }, 90_000);
});

describe("a role that may not create adreport_pace", () => {
  it("the export goes on, each host pacing alone, and says so once in one line naming the table and the grants", async (context) => {
    const db = await postgres.database(context);
    await queryPostgres(db, `CREATE ROLE weak LOGIN; GRANT CREATE ON SCHEMA public TO weak`).catch(() =>
      queryPostgres(db, "GRANT CREATE ON SCHEMA public TO weak"),
    );
    const weak = db.replace("adreport@", "weak@");
    const { url, keys } = await service();
    // Its tables made while it may; then its right to make more taken away (adreport_pace is not there).
    const first = await newHost(url, keys, "w1")([...LINE, "-o", weak]).output;
    expect(first.code, first.stderr).toBe(0);
    await queryPostgres(db, `DROP TABLE adreport_pace; REVOKE CREATE ON SCHEMA public FROM weak`);
    const again = await newHost(url, keys, "w1")([...LINE, "--lookback", "5d", "-o", weak]).output;
    expect(again.code, again.stderr).toBe(0);
    const said = again.stderr.split("\n").filter((line) => line.includes("adreport_pace"));
    expect(said, again.stderr).toHaveLength(1);
    expect(said[0]).toMatch(/paced on this host alone/);
    expect(said[0]).toContain("GRANT");
  }, 60_000);
});
