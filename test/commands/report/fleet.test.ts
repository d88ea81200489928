/**
 * A fleet: the same `report --all-profiles --incremental -o postgres://...` line started on several hosts
 * at once, hosts being separate processes of the built CLI sharing nothing but PostgreSQL and a real serve
 * (each its own HOME, config folder and temp folder). Each account is exported by one host; the others
 * find it taken (its job's lock, or its run of this round) and move on; every host exits 0, and the
 * summaries name every account once as done. kill -9 of a host mid-run: the others finish, a rerun
 * completes, and the table equals a clean single-host run's.
 */
import type { ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { queryPostgres, usePostgres } from "../../helpers/postgres";
import { startTestService } from "../../helpers/serve";
import { type CliResult, startCliChild } from "../../helpers/spawn-cli";
import { tempDir } from "../../helpers/temp";

const postgres = usePostgres();
const ACCOUNTS = 12;
const names = Array.from({ length: ACCOUNTS }, (_, i) => `a${String(i + 1).padStart(2, "0")}`);
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

/** A host of its own, its config naming every account with its key. */
function newHost(url: string, keys: readonly string[]) {
  const home = tempDir("adreport-fleet-");
  for (const sub of [".config/adreport", "tmp"]) mkdirSync(join(home, sub), { recursive: true, mode: 0o700 });
  const profiles = Object.fromEntries(names.map((name, i) => [name, { "api-key": keys[i], "base-url": url }]));
  writeFileSync(join(home, ".config/adreport/config.json"), JSON.stringify({ settings: {}, profiles }), {
    mode: 0o600,
  });
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, ".config"), TMPDIR: join(home, "tmp") };
  return (args: string[]) => startCliChild(args, { cwd: home, env });
}

interface AccountEntry {
  profile: string;
  outcome: string;
  days_written?: number;
  taken_by?: string;
  taken_as?: string;
}

function summaryOf(result: CliResult): AccountEntry[] {
  const last = result.stderr.trim().split("\n").pop() as string;
  return (JSON.parse(last) as { accounts: AccountEntry[] }).accounts;
}

async function service(faults: string) {
  const keys = names.map((_, i) => ({ advertiser: i % 2 === 0 ? "Acme Outdoor" : "Globex, Inc.", ips: ["127.0.0.1"] }));
  const started = await startTestService({ keys, faults });
  return { url: started.url, keys: started.keys, log: started.accessLog };
}

const rowsOf = (url: string) =>
  queryPostgres(
    url,
    `SELECT profile, campaign_id::int, to_char("date", 'YYYY-MM-DD') AS day, views::int, clicks::int FROM ads ORDER BY 1, 2, 3`,
  );

/** The ledger of every job: its profile and days, to compare with the table's. */
async function ledgerDays(url: string): Promise<string[]> {
  const rows = await queryPostgres(url, "SELECT state::text AS state FROM adreport_jobs ORDER BY id");
  return rows
    .flatMap((row) => {
      const state = JSON.parse(row.state as string) as { job: { profile: string }; days: Record<string, unknown> };
      return Object.keys(state.days).map((day) => `${state.job.profile} ${day}`);
    })
    .sort();
}

describe("a fleet of hosts sharing one list of accounts on PostgreSQL", () => {
  it("3 hosts x 12 accounts: each account once, each host exit 0, every account named once as done", async (context) => {
    const clean = await postgres.database(context);
    const fleet = await postgres.database(context);
    const { url, keys } = await service("delay:20ms");
    const single = await newHost(url, keys)([...LINE, "-o", clean]).output;
    expect(single.code, single.stderr).toBe(0);
    const hosts = [0, 1, 2].map(() => newHost(url, keys));
    const results = await Promise.all(hosts.map((host) => host([...LINE, "-o", fleet]).output));
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    const entries = results.flatMap(summaryOf);
    const done = entries.filter((e) => e.outcome === "ok").map((e) => e.profile);
    expect(done.sort()).toEqual(names);
    for (const entry of entries.filter((e) => e.outcome !== "ok")) {
      expect(entry, JSON.stringify(entry)).toMatchObject({
        outcome: "taken",
        taken_by: expect.stringMatching(/^\d+ on "/),
      });
    }
    // Each account-day written once: the days the hosts wrote add up to the single host's.
    const written = (list: AccountEntry[]) =>
      list.filter((e) => e.outcome === "ok").reduce((sum, e) => sum + (e.days_written ?? 0), 0);
    expect(written(entries)).toBe(written(summaryOf(single)));
    expect(await rowsOf(fleet)).toEqual(await rowsOf(clean));
    expect(await ledgerDays(fleet)).toEqual(await ledgerDays(clean));
    // The account table of a host that found accounts taken says by whom.
    const table = results.map((r) => r.stderr).join("");
    expect(table).toMatch(/│ (taken|done) by pid \d+ on host "/);
  }, 120_000);

  it("kill -9 of one host mid-run: the others finish (exit 0), a rerun completes, the table equals a clean run's", async (context) => {
    const clean = await postgres.database(context);
    const fleet = await postgres.database(context);
    const { url, keys } = await service("delay:40ms");
    const single = await newHost(url, keys)([...LINE, "-o", clean]).output;
    expect(single.code, single.stderr).toBe(0);
    const hosts = [0, 1, 2].map(() => newHost(url, keys));
    const started = hosts.map((host) => host([...LINE, "-o", fleet]));
    // Killed: the first host found holding a job of which it has committed a window (a state row naming it).
    const until = Date.now() + 60_000;
    let victim: (ChildProcess & { output: Promise<CliResult> }) | undefined;
    while (victim === undefined) {
      const table = await queryPostgres(
        fleet,
        "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'adreport_jobs'",
      );
      if ((table[0]?.n as number) > 0) {
        const holders = await queryPostgres(
          fleet,
          "SELECT held_by FROM adreport_jobs WHERE held_by IS NOT NULL AND state IS NOT NULL",
        );
        const pids = holders.map((row) => Number.parseInt(String(row.held_by), 10));
        victim = started.find((host) => pids.includes(host.pid as number) && host.exitCode === null);
      }
      if (victim === undefined && Date.now() > until) throw new Error("no host was seen holding a job");
      if (victim === undefined) await new Promise((r) => setTimeout(r, 10));
    }
    victim.kill("SIGKILL");
    const killed = await victim.output;
    expect(killed.signal).toBe("SIGKILL");
    const others = await Promise.all(started.filter((host) => host !== victim).map((host) => host.output));
    for (const result of others) expect(result.code, result.stderr).toBe(0);
    const rerun = await newHost(url, keys)([...LINE, "-o", fleet]).output;
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(await rowsOf(fleet)).toEqual(await rowsOf(clean));
    expect(await ledgerDays(fleet)).toEqual(await ledgerDays(clean));
    // Every account was exported to its end by a host that lived (the one killed had none to its end, or
    // its own finished before it was killed): the survivors' and the rerun's summaries say done or taken.
    const entries = [...others, rerun].flatMap(summaryOf);
    for (const name of names) {
      expect(entries.filter((e) => e.profile === name).map((e) => e.outcome)).not.toContain("failed");
    }
  }, 180_000);

  it("two jobs of one key on two hosts keep one pace (the service's 10/s between them), kept by the key's fingerprint", async (context) => {
    const database = await postgres.database(context);
    const keys = [{ advertiser: "Acme Outdoor", ips: ["127.0.0.1"] }];
    const limited = await startTestService({
      keys,
      serve: { rateLimit: { limit: { quota: 10, windowSeconds: 1 }, headers: true } },
    });
    const { url, accessLog: log } = limited;
    const job = (dims: string) => [
      "report",
      "--profile",
      "a01",
      "--dims",
      dims,
      "--incremental",
      "--start",
      "2026-10-01",
      "--page-size",
      "4",
      "-q",
      "-o",
      database,
    ];
    const results = await Promise.all([
      newHost(url, limited.keys)(job("campaign,date")).output,
      newHost(url, limited.keys)(job("ad,date")).output,
    ]);
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    const reports = log.filter((line) => line.includes("/v1/report"));
    expect(reports.length).toBeGreaterThanOrEqual(40);
    // One schedule for both: the bucket is not overrun (each pacing alone, they would ask at 20/s).
    const refused = reports.filter((line) => / 429 /.test(line));
    expect(refused.length, reports.slice(0, 3).join("\n")).toBeLessThanOrEqual(1);
    const rows = await queryPostgres(database, "SELECT key FROM adreport_pace");
    expect(rows).toHaveLength(1);
    expect(rows[0]?.key).toMatch(/^[0-9a-f]{24}$/);
    expect(JSON.stringify(rows)).not.toContain(limited.keys[0] as string);
  }, 120_000);
});
