/**
 * A fleet attacked from outside: the built CLI as separate hosts (each its own HOME, config folder and temp
 * folder, another host name) against a real serve and a real PostgreSQL.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { queryPostgres, usePostgres } from "../../helpers/postgres";
import { type KeySpec, startTestService } from "../../helpers/serve";
import { type CliResult, cliCommand, environment } from "../../helpers/spawn-cli";
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
function newHost(url: string, keys: readonly string[], hostName: string, extra: Record<string, string> = {}) {
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
    ...extra,
  };
  return (args: string[]): ChildProcess & { output: Promise<CliResult> } => {
    const [cmd, argv] = cliCommand(args);
    const child = spawn(cmd, argv, { cwd: home, env: environment(env), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout?.setEncoding("utf8").on("data", (c: string) => {
      stdout += c;
    });
    child.stderr?.setEncoding("utf8").on("data", (c: string) => {
      stderr += c;
    });
    const output = new Promise<CliResult>((resolve) => {
      child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
    });
    return Object.assign(child, { output });
  };
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
