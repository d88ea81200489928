/**
 * An incremental job interrupted at moments the checkpoint tests do not cover (found by attacking it):
 * 1. A run with a long --lookback over a job already complete, killed after its first window: the state's
 *    last day stays where it was (it went back to that window's end, verify then called the later files
 *    "not the job's" and the next run fetched months again).
 * 2. SIGTERM while a window's answer is being staged: the run ends 130 with its summary (it ended 0 with
 *    nothing said: the day file's writer waited for ever on a stream destroyed without an error).
 */
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dayText } from "../../src/core/calendar";
import { startDemoService } from "../helpers/demo-service";
import { startForwarder } from "../helpers/forwarder";
import { SMALL_DEMO } from "../helpers/serve";
import { cliCommand, runCli } from "../helpers/spawn-cli";

const DAY_MS = 86_400_000;
const today = Math.floor(Date.now() / DAY_MS);
const start = dayText(today - 269);

function spawned(args: string[], cwd: string, env: Record<string, string>) {
  const [cmd, argv] = cliCommand(args);
  const child = spawn(cmd, argv, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (c: string) => {
    stderr += c;
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal, stderr })),
  );
  return { child, exit };
}

async function setUp() {
  const demo = await startDemoService({
    demo: { ...SMALL_DEMO, days: 280, end: (today + 1) * 86_400, adsPerCampaign: 1, keywordsPerAd: 1 },
  });
  const proxy = await startForwarder(demo.service.url);
  const env = { ...demo.env, ADREPORT_BASE_URL: proxy.url };
  mkdirSync(join(demo.dir, "out"));
  return { demo, proxy, env };
}

const args = ["report", "--dims", "campaign,date", "--incremental", "--start", start, "-q", "-o", "out/{date}.csv"];

describe("incremental runs interrupted", () => {
  it("a long --lookback run killed after one window keeps the job's last day and a clean verify", {
    tags: ["binary"],
    timeout: 90_000,
  }, async () => {
    const { demo, proxy, env } = await setUp();
    const first = await runCli(args, { cwd: demo.dir, env });
    expect(first.code, first.stderr).toBe(0);
    const list = await runCli(["state", "list"], { cwd: demo.dir, env });
    const job = list.stdout.split("\n")[1]?.split("\t")[0] ?? "";
    const yesterday = dayText(today - 1);
    expect(list.stdout).toContain(yesterday);

    const secondWindow = dayText(today - 269 + 90);
    const run = spawned([...args, "--lookback", "269d"], demo.dir, env);
    proxy.hook = (from) => {
      if (!from.startsWith(secondWindow)) return "pass";
      run.child.kill("SIGKILL");
      return "hang";
    };
    expect((await run.exit).signal).toBe("SIGKILL");
    proxy.hook = undefined;

    const after = await runCli(["state", "list"], { cwd: demo.dir, env });
    expect(after.stdout, "the last day exported went backwards").toContain(yesterday);
    const verify = await runCli(["verify", job], { cwd: demo.dir, env });
    expect(verify.stdout).toBe("");
    expect(verify.code, verify.stderr).toBe(0);
  });

  it.each([0, 2, 5, 10, 20, 40])(
    "SIGTERM %i ms after a window's answer ends 130 with the failed run's summary, never 0",
    async (delay) => {
      const { demo, proxy, env } = await setUp();
      const secondWindow = dayText(today - 269 + 90);
      const run = spawned([...args, "--summary", "json"], demo.dir, env);
      // The whole answer, then SIGTERM while the client stages the window's day files.
      const terminate = { afterAnswer: () => setTimeout(() => run.child.kill("SIGTERM"), delay) };
      proxy.hook = (from) => (from.startsWith(secondWindow) ? terminate : "pass");
      const result = await run.exit;
      expect(result.code, result.stderr).toBe(130);
      expect(result.stderr).toContain('"outcome":"failed"');
      expect(readdirSync(join(demo.dir, "out")).filter((n) => n.endsWith(".tmp"))).toEqual([]);
    },
    90_000,
  );
});
