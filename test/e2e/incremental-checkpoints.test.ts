/**
 * An incremental backfill commits each 90-day window as it completes: `kill -9` while the third window is
 * fetched, then the same command again, continues from the first day not committed (minus the lookback)
 * and ends with day files byte-identical to an uninterrupted run's. The real CLI as a child process, the
 * real clock, a real `serve` behind a small forwarding server that sees every request.
 */
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { dayText } from "../../src/core/calendar";
import { startDemoService } from "../helpers/demo-service";
import { type Forwarder, startForwarder } from "../helpers/forwarder";
import { SMALL_DEMO } from "../helpers/serve";
import { cliCommand, runCli } from "../helpers/spawn-cli";

const DAY_MS = 86_400_000;
const today = Math.floor(Date.now() / DAY_MS);
const start = dayText(today - 269); // to yesterday: 269 days, three 90-day windows

function files(folder: string): Map<string, string> {
  return new Map(
    readdirSync(folder)
      .sort()
      .map((name) => [name, readFileSync(join(folder, name), "latin1")]),
  );
}

async function killedOnThirdWindow(proxy: Forwarder, args: string[], cwd: string, env: Record<string, string>) {
  const thirdWindow = dayText(today - 269 + 180);
  const [cmd, argv] = cliCommand(args);
  const child = spawn(cmd, argv, { cwd, env: { ...process.env, ...env }, stdio: "ignore" });
  proxy.hook = (from) => {
    if (!from.startsWith(thirdWindow)) return "pass";
    child.kill("SIGKILL");
    return "hang";
  };
  const signal = await new Promise((resolve) => child.on("exit", (_code, sig) => resolve(sig)));
  expect(signal).toBe("SIGKILL");
  proxy.hook = undefined;
  proxy.froms.length = 0;
}

function tableRows(path: string): { days: number; rows: unknown[] } {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db
      .prepare(
        "SELECT campaign_id, name, date, views, clicks, spending, conversions FROM adreport_campaign_date ORDER BY date, campaign_id",
      )
      .all();
    const days = (db.prepare("SELECT COUNT(DISTINCT date) AS n FROM adreport_campaign_date").get() as { n: number }).n;
    return { days, rows };
  } finally {
    db.close();
  }
}

describe("an incremental backfill killed with SIGKILL", () => {
  it("into a database: the windows committed stay, the next run ends row-identical", {
    tags: ["binary"],
    timeout: 60_000,
  }, async () => {
    const demo = await startDemoService({
      demo: { ...SMALL_DEMO, days: 280, end: (today + 1) * 86_400, adsPerCampaign: 1, keywordsPerAd: 1 },
    });
    const proxy = await startForwarder(demo.service.url);
    const env = { ...demo.env, ADREPORT_BASE_URL: proxy.url };
    const args = ["report", "--dims", "campaign,date", "--incremental", "--start", start, "-q"];
    await killedOnThirdWindow(proxy, [...args, "-o", "sqlite:killed.db"], demo.dir, env);
    const kept = tableRows(join(demo.dir, "killed.db"));
    expect(kept.days).toBeGreaterThan(100);
    expect(kept.rows.every((row) => (row as { date: string }).date < dayText(today - 269 + 180))).toBe(true);

    const again = await runCli([...args, "-o", "sqlite:killed.db"], { cwd: demo.dir, env });
    expect(again.code, again.stderr).toBe(0);
    for (const from of proxy.froms) expect(from.slice(0, 10) >= dayText(today - 269 + 177), from).toBe(true);
    const whole = await runCli([...args, "-o", "sqlite:whole.db"], { cwd: demo.dir, env: demo.env });
    expect(whole.code, whole.stderr).toBe(0);
    expect(tableRows(join(demo.dir, "killed.db"))).toEqual(tableRows(join(demo.dir, "whole.db")));
  });

  it("continues from the first window not committed and ends byte-identical to an uninterrupted run", async () => {
    const demo = await startDemoService({
      demo: { ...SMALL_DEMO, days: 280, end: (today + 1) * 86_400, adsPerCampaign: 1, keywordsPerAd: 1 },
    });
    const proxy = await startForwarder(demo.service.url);
    const env = { ...demo.env, ADREPORT_BASE_URL: proxy.url };
    const args = ["report", "--dims", "campaign,date", "--incremental", "--start", start, "-q"];
    mkdirSync(join(demo.dir, "killed"));
    mkdirSync(join(demo.dir, "whole"));

    // The third window's first request: the process is killed while it waits for the answer.
    await killedOnThirdWindow(proxy, [...args, "-o", "killed/{date}.csv"], demo.dir, env);
    // The first two windows are in place; nothing of the third.
    const afterKill = readdirSync(join(demo.dir, "killed")).filter((n) => n.endsWith(".csv"));
    expect(afterKill).toHaveLength(180);

    const again = await runCli([...args, "-o", "killed/{date}.csv"], { cwd: demo.dir, env });
    expect(again.code, again.stderr).toBe(0);
    // From the first day not committed minus the 3-day lookback: the first window is not asked for again.
    const lookbackStart = dayText(today - 269 + 180 - 3);
    expect(proxy.froms.length).toBeGreaterThan(0);
    for (const from of proxy.froms) expect(from.slice(0, 10) >= lookbackStart, from).toBe(true);

    const whole = await runCli([...args, "-o", "whole/{date}.csv"], { cwd: demo.dir, env: demo.env });
    expect(whole.code, whole.stderr).toBe(0);
    const killed = files(join(demo.dir, "killed"));
    expect(killed.size).toBe(269);
    expect(killed).toEqual(files(join(demo.dir, "whole")));
  }, 60_000);
});
