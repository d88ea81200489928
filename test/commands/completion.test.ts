/**
 * Shell completion: the scripts `adreport completion` prints, generated in this process. The bash cases
 * run the script in bash (what it does is bash's to show); where it asks adreport for the profile names,
 * a bash function answers with what `keys list --format ndjson` printed here. test/cli/completion-help.test.ts runs a
 * few cases through the real CLI.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { SETTING_NAMES } from "../../src/config/settings";
import { FORMAT_NAMES } from "../../src/core/formats";
import { runInProcess } from "../helpers/run-cli-in-process";
import { tempDir } from "../helpers/temp";

const FORMATS = FORMAT_NAMES.join(" ");
const SETTINGS = SETTING_NAMES.join(" ");

const dir = tempDir();
const script = join(dir, "adreport.bash");
let profilesJson = "";

// Built once; no case changes the script or the profiles.
beforeAll(async () => {
  const completion = await runInProcess(["completion", "bash"]);
  expect(completion.code).toBe(0);
  writeFileSync(script, completion.stdout);
  const env = { ADREPORT_CONFIG_DIR: join(dir, "config") };
  for (const profile of ["acme", "globex"]) {
    expect((await runInProcess(["keys", "add", profile], { env, input: "adr_k" })).code).toBe(0);
  }
  profilesJson = (await runInProcess(["keys", "list", "--format", "ndjson"], { env })).stdout;
});

/**
 * Runs the completion function on `line` in bash, with `before` run first and `after` then. `adreport keys list --format ndjson`
 * answers with the profiles; any other call of adreport is reported on stderr (fd 3: the script hides the
 * command's own stderr).
 */
function bash(line: string, before: string, after = ""): { stdout: string; stderr: string } {
  const probe = `
    exec 3>&2
    source ${JSON.stringify(script)}
    adreport() { if [ "$*" = "keys list --format ndjson" ]; then printf '%s' "$PROFILES_JSON"; else echo "unexpected: adreport $*" >&3; fi; }
    ${before}
    COMP_WORDS=(${line}); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _adreport; ${after}`;
  // No startup files: the developer's own shell setup has no say in what the script completes.
  const result = spawnSync("bash", ["--norc", "--noprofile", "-c", probe], {
    encoding: "utf8",
    env: { PATH: process.env.PATH, HOME: dir, PROFILES_JSON: profilesJson },
  });
  return { stdout: result.stdout, stderr: result.stderr };
}

describe("bash completion", () => {
  const cases: Array<[string, string]> = [
    ["adreport ''", "report keys config serve state status verify completion help"],
    ["adreport ke", "keys"],
    ["adreport keys ''", "add list remove use show test request"],
    ["adreport report --format ''", FORMATS],
    ["adreport keys request add-ip --format ''", "text json ndjson"],
    ["adreport report --metrics views,c", "views,clicks views,conversions"],
    ["adreport report --from -7d --dims campaign --gr", "--granularity"],
    ["adreport report --granularity ''", "hour day week month"],
    ["adreport report --profile ''", "acme globex"],
    ["adreport keys use ''", "acme globex"],
    ["adreport keys request ''", "new rotate add-ip remove-ip"],
    ["adreport serve --po", "--port"],
    ["adreport serve key ''", "issue rotate revoke list"],
    ["adreport completion ''", "bash zsh fish"],
    // Only the dimension lists the contract accepts: no campaign,ad, no keyword,date.
    ["adreport report --dims ''", "date campaign ad keyword date,campaign date,ad campaign,date ad,date"],
    ["adreport report --dimensions campaign,", "campaign,date"],
    ["adreport report --dims keyword,", ""],
    ["adreport report --dims ad --to ''", "yesterday today"],
    ["adreport report --page-size ''", ""],
    ["adreport report --dims keyword --metrics ''", "views spending clicks"],
    ["adreport report --dims campaign --metrics c", "clicks conversions"],
    ["adreport config ''", "get set unset list path"],
    ["adreport config set ''", SETTINGS],
    ["adreport config get --profile acme p", SETTING_NAMES.filter((name) => name.startsWith("p")).join(" ")],
    ["adreport config set format ''", FORMATS],
    ["adreport config set --profile acme format j", "json"],
    ["adreport config set profile ''", "acme globex"],
    ["adreport config set page-size ''", ""],
    ["adreport config set format json ''", ""],
    ["adreport keys use acme ''", ""],
    [
      "adreport help ''",
      "report keys config serve state status verify completion formats dates cron monitoring settings environment exit-codes logging telemetry",
    ],
  ];

  it.each(cases)("completes %s", (line, expected) => {
    const result = bash(line, "", `echo "\${COMPREPLY[*]}"`);
    expect(result.stderr).toBe("");
    expect(result.stdout.trim()).toBe(expected);
  });
});

describe("bash completion and file names", () => {
  // \`complete -o default\` makes bash offer file names whenever the function leaves no candidates, so the
  // function must turn that off (\`compopt +o default\`) wherever the value is not a file. Outside a real
  // completion bash refuses compopt, so the probe defines one that reports what it was asked.
  const probe = (line: string) => {
    const result = bash(line, 'compopt() { echo "compopt $*"; }');
    expect(result.stderr).toBe("");
    return result.stdout;
  };

  it.each([
    "adreport report --format zz",
    "adreport report --granularity zz",
    "adreport report --dims campaign,date,",
    "adreport report --from zz",
    "adreport config set format zz",
    "adreport zz",
  ])("offers no file names for %s", (line) => {
    expect(probe(line)).toContain("compopt +o default");
  });

  it.each(["adreport report -o zz", "adreport serve load zz"])("keeps file names for %s", (line) => {
    expect(probe(line)).not.toContain("+o default");
  });
});

describe("zsh and fish completion", () => {
  it("zsh loads the bash completion through bashcompinit", async () => {
    const { stdout, code } = await runInProcess(["completion", "zsh"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^#compdef adreport\n/);
    expect(stdout).toContain("autoload -U +X bashcompinit && bashcompinit");
    expect(stdout).toContain("complete -o default -F _adreport adreport");
  });

  it("fish completes subcommands, flags and their values", async () => {
    const { stdout } = await runInProcess(["completion", "fish"]);
    expect(stdout).toContain("complete -c adreport -n '__fish_use_subcommand' -a report");
    // -x: a value without file names among its completions.
    expect(stdout).toContain(
      `complete -c adreport -n '__fish_seen_subcommand_from report' -l format -s f -x -a '${FORMATS}'`,
    );
    expect(stdout).toContain("-l metrics -x -a 'views spending clicks conversions'");
    expect(stdout).toContain(
      "-l dims -l dimensions -x -a 'date campaign ad keyword date,campaign date,ad campaign,date ad,date'",
    );
    expect(stdout).toContain("-l output -s o -r -F");
    expect(stdout).not.toMatch(/-l (format|metrics|dims|page-size|base-url) [^\n]*-r\b/);
  });

  it("fish completes setting names and the values of config set, apart from keys list", async () => {
    const { stdout } = await runInProcess(["completion", "fish"]);
    const set = "__fish_seen_subcommand_from config; and __fish_seen_subcommand_from set";
    expect(stdout).toContain(
      `complete -c adreport -n '${set}; and not __fish_seen_subcommand_from ${SETTINGS}' -a '${SETTINGS}'`,
    );
    expect(stdout).toContain(
      `complete -c adreport -n '${set}; and __fish_seen_subcommand_from format' -a '${FORMATS}'`,
    );
    expect(stdout).toContain(
      "complete -c adreport -n '__fish_seen_subcommand_from config; and __fish_seen_subcommand_from list' -l base-url",
    );
    expect(stdout).not.toContain("complete -c adreport -n '__fish_seen_subcommand_from list'");
  });
});
