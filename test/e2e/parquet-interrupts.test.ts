/**
 * Parquet day files under kill -9 (a process shows it): killed while a window's answer is being staged,
 * every `.parquet` file in place is whole (DuckDB reads it), the staged leftovers are removed by the next
 * run, which completes the job, and `verify` then finds every day as written.
 */
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dayText } from "../../src/core/calendar";
import { startDemoService } from "../helpers/demo-service";
import { startForwarder } from "../helpers/forwarder";
import { duckdb, parquetOf } from "../helpers/parquet-read";
import { SMALL_DEMO } from "../helpers/serve";
import { cliCommand, runCli } from "../helpers/spawn-cli";

const DAY_MS = 86_400_000;
const today = Math.floor(Date.now() / DAY_MS);
const start = dayText(today - 269);
const args = ["report", "--dims", "campaign,date", "--incremental", "--start", start, "-q", "-o", "out/{date}.parquet"];

describe("parquet day files killed", () => {
  it("kill -9 while a window is staged: the files in place are whole; the next run completes, verify is clean", {
    tags: ["binary"],
    timeout: 120_000,
  }, async () => {
    const demo = await startDemoService({
      demo: { ...SMALL_DEMO, days: 280, end: (today + 1) * 86_400, adsPerCampaign: 1, keywordsPerAd: 1 },
    });
    const proxy = await startForwarder(demo.service.url);
    const env = { ...demo.env, ADREPORT_BASE_URL: proxy.url };
    const out = join(demo.dir, "out");
    mkdirSync(out);
    const [cmd, argv] = cliCommand(args);
    const child = spawn(cmd, argv, { cwd: demo.dir, env: { ...process.env, ...env }, stdio: "ignore" });
    const exit = new Promise<NodeJS.Signals | null>((resolve) => child.on("close", (_code, signal) => resolve(signal)));
    const secondWindow = dayText(today - 269 + 90);
    proxy.hook = (from) => (from.startsWith(secondWindow) ? { afterAnswer: () => child.kill("SIGKILL") } : "pass");
    expect(await exit).toBe("SIGKILL");
    proxy.hook = undefined;

    const placed = readdirSync(out).filter((name) => name.endsWith(".parquet"));
    expect(placed.length).toBeGreaterThan(0);
    for (const name of placed) {
      const [read] = await duckdb(`SELECT count(*) AS n FROM ${parquetOf(join(out, name))}`);
      expect(Number(read?.n), name).toBeGreaterThanOrEqual(0);
    }

    const again = await runCli(args, { cwd: demo.dir, env });
    expect(again.code, again.stderr).toBe(0);
    expect(readdirSync(out).filter((name) => !name.endsWith(".parquet"))).toEqual([]);
    expect(readdirSync(out)).toHaveLength(269); // every day from the start to yesterday
    const list = await runCli(["state", "list"], { cwd: demo.dir, env });
    const job = list.stdout.split("\n")[1]?.split("\t")[0] ?? "";
    const verify = await runCli(["verify", job], { cwd: demo.dir, env });
    expect(verify.code, verify.stderr).toBe(0);
    expect(verify.stdout).toBe("");
  });
});
