/**
 * An incremental backfill into `duckdb:PATH` commits each 90-day window as it completes: `kill -9` while
 * the third window is fetched keeps the two windows committed (DuckDB's WAL replayed when the file is
 * opened again), and the same command again continues from the first day not committed (minus the
 * lookback) and ends row-identical to an uninterrupted run. The real CLI as a child process, a real
 * `serve` behind a small forwarding server that sees every request.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dayText } from "../../src/core/calendar";
import { startDemoService } from "../helpers/demo-service";
import { duckdbRows } from "../helpers/duckdb";
import { startForwarder } from "../helpers/forwarder";
import { SMALL_DEMO } from "../helpers/serve";
import { cliCommand, runCli } from "../helpers/spawn-cli";

const DAY_MS = 86_400_000;
const today = Math.floor(Date.now() / DAY_MS);
const start = dayText(today - 269); // to yesterday: 269 days, three 90-day windows
const ROWS = `SELECT campaign_id, name, strftime("date", '%Y-%m-%d'), views, clicks, CAST(spending AS VARCHAR), conversions
  FROM adreport_campaign_date ORDER BY "date", campaign_id`;

describe("an incremental backfill into DuckDB killed with SIGKILL", () => {
  it("keeps the windows committed, and the next run ends row-identical", async () => {
    const demo = await startDemoService({
      demo: { ...SMALL_DEMO, days: 280, end: (today + 1) * 86_400, adsPerCampaign: 1, keywordsPerAd: 1 },
    });
    const proxy = await startForwarder(demo.service.url);
    const env = { ...demo.env, ADREPORT_BASE_URL: proxy.url };
    const args = ["report", "--dims", "campaign,date", "--incremental", "--start", start, "-q"];
    const thirdWindow = dayText(today - 269 + 180);
    const [cmd, argv] = cliCommand([...args, "-o", "duckdb:killed.duckdb"]);
    const child = spawn(cmd, argv, { cwd: demo.dir, env: { ...process.env, ...env }, stdio: "ignore" });
    proxy.hook = (from) => {
      if (!from.startsWith(thirdWindow)) return "pass";
      child.kill("SIGKILL");
      return "hang";
    };
    const signal = await new Promise((resolve) => child.on("exit", (_code, sig) => resolve(sig)));
    expect(signal).toBe("SIGKILL");
    proxy.hook = undefined;
    proxy.froms.length = 0;

    const killed = join(demo.dir, "killed.duckdb");
    const [[days, last]] = (await duckdbRows(
      killed,
      `SELECT count(DISTINCT "date"), strftime(max("date"), '%Y-%m-%d') FROM adreport_campaign_date`,
    )) as [[bigint, string]];
    expect(days).toBeGreaterThan(100n);
    expect(last < thirdWindow).toBe(true);

    const again = await runCli([...args, "-o", "duckdb:killed.duckdb"], { cwd: demo.dir, env });
    expect(again.code, again.stderr).toBe(0);
    for (const from of proxy.froms) expect(from.slice(0, 10) >= dayText(today - 269 + 177), from).toBe(true);
    const whole = await runCli([...args, "-o", "duckdb:whole.duckdb"], { cwd: demo.dir, env: demo.env });
    expect(whole.code, whole.stderr).toBe(0);
    expect(await duckdbRows(killed, ROWS)).toEqual(await duckdbRows(join(demo.dir, "whole.duckdb"), ROWS));
  }, 90_000);
});
