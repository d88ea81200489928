/**
 * Every command a hint about a key prints runs as printed: `keys test` and `report` (one profile, every
 * profile, a key from ADREPORT_API_KEY) against a real `serve` refusing a key (401) and this host's address
 * (403), each `adreport ...` in their `hint:` lines is run in this process as written, with the same config
 * folder and environment, and must not end in a usage error (exit 2); each word must pass through a shell
 * unchanged (no `<name>` placeholder, which a shell reads as a redirection). Where it asks for a key on
 * stdin (as `keys add` does at a terminal's prompt), stdin holds one.
 */
import { cpSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configDirWith } from "../helpers/config";
import { runInProcess } from "../helpers/run-cli-in-process";
import { startTestService } from "../helpers/serve";
import type { CliResult } from "../helpers/spawn-cli";
import { tempDir } from "../helpers/temp";

const service = await startTestService({
  keys: [
    { advertiser: "Acme Outdoor", ips: ["127.0.0.1"] },
    { advertiser: "Acme Outdoor", ips: ["127.0.0.1"], expiresAt: Date.UTC(2020, 0, 1) / 1000 },
    { advertiser: "Acme Outdoor", ips: ["192.0.2.10"] },
  ],
});
const [OK, EXPIRED, ELSEWHERE] = service.keys as [string, string, string];
const NOW = new Date("2026-11-02T09:30:00Z");
const RANGE = ["--from", "2026-10-01", "--to", "2026-10-31", "--dims", "campaign", "-f", "csv"];

/** The commands in a run's hint lines: each `adreport` and its words, up to a bracket, `,` or `;`. */
function hintCommands(stderr: string): string[][] {
  const hints = stderr.split("\n").filter((line) => line.startsWith("hint: "));
  return hints.flatMap((hint) =>
    [...hint.matchAll(/\badreport((?: [^\s(),;]+)+)/g)].map((match) => (match[1] ?? "").trim().split(" ")),
  );
}

async function run(args: string[], config: string, env: Record<string, string>): Promise<CliResult> {
  return runInProcess(args, {
    now: NOW,
    input: `adr_${"n".repeat(43)}\n`,
    env: { ADREPORT_CONFIG_DIR: config, TMPDIR: tempDir("adreport-spool-"), ...env },
  });
}

/** Runs `args`, then every hint command it printed, each against a copy of the config as it was. */
async function hintsOf(args: string[], config: string, env: Record<string, string> = {}) {
  const failed = await run(args, config, env);
  expect(failed.code, failed.stderr).not.toBe(0);
  const commands = hintCommands(failed.stderr);
  const ran: Array<{ command: string; code: number | null; stderr: string }> = [];
  for (const command of commands) {
    const copy = join(tempDir(), "config");
    cpSync(config, copy, { recursive: true });
    const result = await run(command, copy, env);
    ran.push({ command: command.join(" "), code: result.code, stderr: result.stderr });
  }
  return { stderr: failed.stderr, commands: commands.map((c) => c.join(" ")), ran };
}

/** A word a shell passes on as it is: a placeholder such as `<name>` would be read as a redirection. */
const SHELL_SAFE = /^[A-Za-z0-9_.,:/@%+=-]+$/;

function expectAllRan(ran: Array<{ command: string; code: number | null; stderr: string }>) {
  for (const { command, code, stderr } of ran) {
    for (const word of command.split(" ")) expect(word, `adreport ${command}`).toMatch(SHELL_SAFE);
    expect(code, `adreport ${command}\n${stderr}`).not.toBe(2);
  }
}

const at = (key: string, extra: Record<string, unknown> = {}) => ({
  "api-key": key,
  "base-url": service.url,
  ...extra,
});

describe("every hint about a key runs as printed", () => {
  it.each([
    ["keys test, a profile with no account, 403", ["keys", "test", "acme"], { acme: at(ELSEWHERE) }],
    [
      "keys test, a profile with an account, 403",
      ["keys", "test", "acme"],
      { acme: at(ELSEWHERE, { account: "Acme" }) },
    ],
    ["keys test, 401", ["keys", "test", "acme"], { acme: at(EXPIRED) }],
    ["report --profile, 403", ["report", "--profile", "acme", ...RANGE], { acme: at(ELSEWHERE) }],
    ["report --profile, 401", ["report", "--profile", "acme", ...RANGE], { acme: at(EXPIRED) }],
    ["report with the default profile, 403", ["report", ...RANGE], { acme: at(ELSEWHERE) }],
    [
      "keys test --all-profiles",
      ["keys", "test", "--all-profiles"],
      { acme: at(OK), expired: at(EXPIRED), hooli: at(ELSEWHERE) },
    ],
    [
      "report --all-profiles",
      ["report", "--all-profiles", ...RANGE],
      { acme: at(OK), expired: at(EXPIRED), hooli: at(ELSEWHERE) },
    ],
    [
      "report --profile without a key",
      ["report", "--profile", "bare", ...RANGE],
      { bare: { "base-url": service.url } },
    ],
    ["report --profile that does not exist", ["report", "--profile", "globex", ...RANGE], { acme: at(OK) }],
  ] as const)("%s", async (_label, args, profiles) => {
    const config = configDirWith({ profile: Object.keys(profiles)[0] }, profiles);
    const { stderr, commands, ran } = await hintsOf([...args], config);
    expect(commands.length, stderr).toBeGreaterThan(0);
    expectAllRan(ran);
  });

  it.each([
    ["keys test", ["keys", "test"]],
    ["report", ["report", ...RANGE]],
  ])("%s with a key in ADREPORT_API_KEY: hints that fit it and run", async (_label, args) => {
    const config = configDirWith({}, {});
    for (const key of [ELSEWHERE, EXPIRED]) {
      const { stderr, commands, ran } = await hintsOf(args, config, {
        ADREPORT_API_KEY: key,
        ADREPORT_BASE_URL: service.url,
      });
      expect(commands.length, stderr).toBeGreaterThan(0);
      expect(stderr).not.toContain("--profile");
      expectAllRan(ran);
    }
  });

  it("the 403 hint's request, run as printed, is the letter for the profile's account", async () => {
    const config = configDirWith({ profile: "acme" }, { acme: at(ELSEWHERE, { account: "Acme Outdoor GmbH" }) });
    const failed = await run(["keys", "test"], config, {});
    const [command] = hintCommands(failed.stderr);
    expect(command).toEqual(["keys", "request", "add-ip", "--profile", "acme", "--ip", "127.0.0.1"]);
    const letter = await run(command ?? [], config, {});
    expect(letter.code, letter.stderr).toBe(0);
    expect(letter.stdout).toContain("Account: Acme Outdoor GmbH\nRequest: add IP\nIP addresses: 127.0.0.1");
  });

  it("without an account set and without a terminal, the letter names the profile and a note says so", async () => {
    const config = configDirWith({ profile: "acme" }, { acme: at(ELSEWHERE) });
    const letter = await run(["keys", "request", "add-ip", "--profile", "acme", "--ip", "127.0.0.1"], config, {});
    expect(letter.code, letter.stderr).toBe(0);
    expect(letter.stdout).toContain('add IP for account "acme"');
    expect(letter.stderr).toBe(
      'adreport: note: profile acme has no account set, so the letter names it "acme"; if the operator knows the account by another name, set that: adreport config set account NAME --profile acme\n',
    );
  });
});
