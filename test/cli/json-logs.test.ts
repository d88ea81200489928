/**
 * `--log-format json` (ADREPORT_LOG_FORMAT=json): every stderr line of a run, as a process writes it (the
 * front's refusals too), is one JSON object with a time, a level, a known code and a message; stdout holds
 * the data alone; the codes are the ones docs/topics/logging.md lists.
 */
import { execFile } from "node:child_process";
import { chmodSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { LOG_CODES } from "../../src/core/log-codes";
import { configDirWith } from "../helpers/config";
import { ACME_KEY, startDemoService } from "../helpers/demo-service";
import { cliCommand, runCli } from "../helpers/spawn-cli";
import { tempDir } from "../helpers/temp";

const demo = await startDemoService({ keys: [ACME_KEY, { advertiser: "Globex, Inc.", ips: ["192.0.2.1"] }] });
const [ACME, ELSEWHERE] = demo.service.keys as [string, string];
const RANGE = ["--from", "2026-10-01", "--to", "2026-10-31", "--dims", "campaign"];

interface Record_ {
  time: string;
  level: string;
  code: keyof typeof LOG_CODES;
  message: string;
  [field: string]: unknown;
}

/** Every line of `stderr` as a record, each checked for the four keys and a known code. */
function records(stderr: string): Record_[] {
  const lines = stderr.split("\n");
  expect(lines.at(-1)).toBe("");
  return lines.slice(0, -1).map((line) => {
    const record = JSON.parse(line) as Record_;
    expect(Object.keys(record).slice(0, 4)).toEqual(["time", "level", "code", "message"]);
    expect(new Date(record.time).toISOString()).toBe(record.time);
    expect(Object.keys(LOG_CODES)).toContain(record.code);
    expect(record.level).toBe(LOG_CODES[record.code].level);
    return record;
  });
}

describe.concurrent("JSON logs", () => {
  it("a refused flag, answered by the front: the error and its hint", async () => {
    const result = await runCli(["--log-format", "json", "report", "--from", "someday"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    const said = records(result.stderr);
    expect(said.map((r) => r.code)).toEqual(["error.usage", "hint"]);
    expect(said[0]?.exit_code).toBe(2);
    expect(said[0]?.message).toMatch(/^--from: "someday" is not one of/);
  });

  it("an unknown flag, from the environment variable", async () => {
    const result = await runCli(["report", "--bogus"], { env: { ADREPORT_LOG_FORMAT: "json" } });
    expect(result.code).toBe(2);
    expect(records(result.stderr).map((r) => [r.code, r.message])).toEqual([
      ["error.usage", "unknown option '--bogus'"],
    ]);
  });

  it("ADREPORT_LOG_FORMAT with a value that is neither text nor json is refused as text (exit 2), not taken for text", async () => {
    for (const value of ["JSON", "garbage"]) {
      const result = await runCli(["report", ...RANGE], {
        cwd: demo.dir,
        env: { ...demo.env, ADREPORT_LOG_FORMAT: value },
      });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toBe(
        `adreport: ADREPORT_LOG_FORMAT: "${value}" is not a log format; expected text or json\nhint: export ADREPORT_LOG_FORMAT=json\n`,
      );
    }
    const flag = await runCli(["report", ...RANGE, "--log-format", "text"], {
      cwd: demo.dir,
      env: { ...demo.env, ADREPORT_LOG_FORMAT: "garbage" },
    });
    expect(flag.code, flag.stderr).toBe(0);
  });

  it("the hidden key prompt on a terminal: a record said at once (it waited unseen for a line feed), the key never on the screen", async () => {
    const config = configDirWith({});
    const [command, argv] = cliCommand(["keys", "add", "acme", "--log-format", "json"]);
    const { stdout } = await promisify(execFile)(
      "python3",
      [
        join(import.meta.dirname, "..", "helpers", "pty-run.py"),
        "100",
        ACME,
        "input is hidden",
        "--",
        command,
        ...argv,
      ],
      { encoding: "utf8", env: { ...process.env, ADREPORT_CONFIG_DIR: config } },
    );
    const { screen, code } = JSON.parse(stdout) as { screen: string; code: number | null };
    expect(code, screen).toBe(0);
    expect(screen).not.toContain(ACME);
    const lines = records(screen.replaceAll("\r\n", "\n"));
    expect(lines.map((line) => [line.code, line.message])).toEqual([
      ["note", "API key for profile acme (input is hidden):"],
      ["note", expect.stringMatching(/^added profile acme \(/)],
    ]);
  }, 30_000);

  it("the account prompt of keys request on a terminal: a record said at once, not glued to the next line", async () => {
    const config = configDirWith({ profile: "acme" }, { acme: { "api-key": ACME } });
    const [command, argv] = cliCommand(["keys", "request", "rotate", "--log-format", "json"]);
    const { stdout } = await promisify(execFile)(
      "python3",
      [
        join(import.meta.dirname, "..", "helpers", "pty-run.py"),
        "100",
        "Acme Outdoor GmbH",
        "Account name",
        "--",
        command,
        ...argv,
      ],
      { encoding: "utf8", env: { ...process.env, ADREPORT_CONFIG_DIR: config } },
    );
    const { screen, code } = JSON.parse(stdout) as { screen: string; code: number | null };
    expect(code, screen).toBe(0);
    const lines = screen.replaceAll("\r\n", "\n").split("\n");
    expect(JSON.parse(lines[0] ?? "")).toMatchObject({
      code: "note",
      message: "Account name the operator knows for profile acme:",
    });
  }, 30_000);

  it("a failing run (a key from an address it is not whitelisted for): exit 4, one error and its hint", async () => {
    const result = await runCli(["report", ...RANGE, "--log-format=json"], {
      cwd: demo.dir,
      env: { ...demo.env, ADREPORT_API_KEY: ELSEWHERE },
    });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe("");
    const said = records(result.stderr);
    expect(said.map((r) => r.code)).toEqual(["error.forbidden", "hint"]);
    expect(result.stderr).not.toContain(ELSEWHERE.slice(4));
  });

  it("a run with a warning, its requests (--verbose) and its summary: data on stdout only", async () => {
    const config = configDirWith({}, { acme: { "api-key": ACME, "base-url": demo.service.url } });
    chmodSync(join(config, "config.json"), 0o644);
    const result = await runCli(
      ["report", ...RANGE, "--profile", "acme", "--verbose", "--summary", "json", "--log-format", "json"],
      {
        cwd: demo.dir,
        env: { ADREPORT_CONFIG_DIR: config },
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.split("\n")[0]).toMatch(/^campaign/i);
    const said = records(result.stderr);
    const codes = said.map((r) => r.code);
    expect(codes).toContain("warning");
    expect(codes).toContain("request");
    const request = said.find((r) => r.code === "request");
    expect(request?.status).toBe(200);
    expect(request?.method).toBe("GET");
    const summary = said.find((r) => r.code === "summary");
    expect((summary?.summary as { outcome: string } | undefined)?.outcome).toBe("ok");
    expect(result.stderr).not.toContain(ACME.slice(4));
  });

  it("a run over several profiles, one failing: a record per account, the failure and its hint, each with its profile", async () => {
    const config = configDirWith(
      {},
      {
        acme: { "api-key": ACME, "base-url": demo.service.url },
        elsewhere: { "api-key": ELSEWHERE, "base-url": demo.service.url },
      },
    );
    const result = await runCli(["report", "--all-profiles", ...RANGE, "-o", "{profile}.csv"], {
      cwd: tempDir(),
      env: { ADREPORT_CONFIG_DIR: config, ADREPORT_LOG_FORMAT: "json" },
    });
    expect(result.code).toBe(6);
    const said = records(result.stderr);
    const accounts = said.filter((r) => r.code === "account.result");
    expect(accounts.map((r) => [r.profile, r.outcome])).toEqual([
      ["acme", "ok"],
      ["elsewhere", "IP not whitelisted"],
    ]);
    expect(said.find((r) => r.code === "account.failed")?.profile).toBe("elsewhere");
    expect(said.at(-1)?.code).toBe("error.partial");
    // No line drawn for a terminal.
    expect(result.stderr).not.toContain("┌");
  });

  it("docs/topics/logging.md lists every code, with its level", () => {
    const text = readFileSync(join(import.meta.dirname, "..", "..", "docs", "topics", "logging.md"), "utf8");
    for (const [code, { level }] of Object.entries(LOG_CODES)) {
      expect(text).toContain(`| \`${code}\` | ${level} |`);
    }
  });
});
