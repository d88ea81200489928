/**
 * `adreport keys` and `adreport config` in a real process: the hidden prompt on a pseudo-terminal, and a
 * smoke run of each family so the single-file binary proves them too. Every other case of keys and config
 * runs in-process: test/commands/keys/keys.test.ts and test/commands/config/config.test.ts.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type CliResult, cliCommand, runCli } from "../helpers/spawn-cli";
import { tempDir } from "../helpers/temp";

const dir = tempDir();
const KEY = `adr_${"S3cr3tK3yMat3rial".repeat(2)}abcdefghi`;
const outputs: CliResult[] = [];
let configCount = 0;

function newConfigDir(): string {
  configCount += 1;
  return join(dir, `config-${configCount}`);
}

async function cli(
  args: string[],
  configDir: string,
  options: { input?: string; env?: Record<string, string | undefined> } = {},
) {
  const result = await runCli(args, { env: { ADREPORT_CONFIG_DIR: configDir, ...options.env }, input: options.input });
  outputs.push(result);
  return result;
}

afterAll(() => {
  for (const output of outputs) {
    if (!output.stdout.startsWith(`${KEY}\n`)) expect(output.stdout).not.toContain(KEY);
    expect(output.stderr).not.toContain(KEY);
    expect(output.stderr).not.toContain(KEY.slice(8, -4));
  }
});

describe("keys", { tags: ["binary"] }, () => {
  it("adds a key from stdin, never echoing it, in a 0600 file in a 0700 folder", async () => {
    const config = newConfigDir();
    const added = await cli(["keys", "add", "acme", "--stdin"], config, { input: `${KEY}\n` });
    expect(added.code).toBe(0);
    expect(added.stderr).toContain("added profile acme (adr_S3cr…fghi), the default");
    expect(statSync(config).mode & 0o777).toBe(0o700);
    expect(statSync(join(config, "config.json")).mode & 0o777).toBe(0o600);
    const list = await cli(["keys", "list"], config);
    expect(list.stdout).toMatch(/\*\s+│ acme\s+│ adr_S3cr…fghi/);
    expect((await cli(["keys", "show", "acme"], config)).stdout).toBe("adr_S3cr…fghi\n");
    expect((await cli(["keys", "show", "acme", "--reveal"], config)).stdout).toBe(`${KEY}\n`);
  });

  // A real terminal: the prompt turns echo off on the tty itself, which no in-memory stream shows.
  it("reads the key from a hidden prompt on a terminal", () => {
    const config = newConfigDir();
    const [command, args] = cliCommand(["keys", "add", "acme"]);
    const result = spawnSync(
      "python3",
      [join(import.meta.dirname, "..", "helpers", "pty-run.py"), "80", KEY, "API key", "--", command, ...args],
      { encoding: "utf8", env: { ...process.env, ADREPORT_CONFIG_DIR: config } },
    );
    const { screen, code } = JSON.parse(result.stdout) as { screen: string; code: number };
    expect(code).toBe(0);
    expect(screen).toContain("API key for profile acme (input is hidden):");
    expect(screen).not.toContain(KEY);
    expect(JSON.parse(readFileSync(join(config, "config.json"), "utf8")).profiles.acme["api-key"]).toBe(KEY);
  });
});

describe("config", { tags: ["binary"] }, () => {
  // The environment of a real process (process.env, read by the system context) outranks the config file.
  it("sets and gets a setting, and lists where each comes from", async () => {
    const config = newConfigDir();
    await cli(["keys", "add", "acme"], config, { input: KEY });
    expect((await cli(["config", "set", "page-size", "500"], config)).code).toBe(0);
    expect((await cli(["config", "get", "page-size"], config)).stdout).toBe("500\n");
    const list = await cli(["config", "list", "--json"], config, { env: { ADREPORT_BASE_URL: "https://env.example" } });
    const rows = Object.fromEntries(
      list.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l))
        .map((r) => [r.setting, r]),
    );
    expect(rows["page-size"]).toEqual({ setting: "page-size", value: "500", source: "config file" });
    expect(rows["base-url"]).toEqual({ setting: "base-url", value: "https://env.example", source: "environment" });
    expect(rows["api-key"]).toEqual({ setting: "api-key", value: "adr_S3cr…fghi", source: "profile" });
  });
});
