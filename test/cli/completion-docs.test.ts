/** The edges of the CLI: shell completion, the generated reference, suggestions, --help and --version. */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { referenceMarkdown } from "../../src/cli/reference";
import { SETTING_NAMES } from "../../src/config/settings";
import { FORMAT_NAMES } from "../../src/core/formats";
import { cliCommand, runCli } from "../helpers/cli";
import { tempDir } from "../helpers/temp";

const FORMATS = FORMAT_NAMES.join(" ");
const SETTINGS = SETTING_NAMES.join(" ");

const ROOT = join(import.meta.dirname, "..", "..");
const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };

describe("docs/cli.md", () => {
  it("is what the command definitions generate (run `npm run docs` after changing a command)", () => {
    expect(readFileSync(join(ROOT, "docs", "cli.md"), "utf8")).toBe(referenceMarkdown(version));
  });
});

describe("bash completion", () => {
  const dir = tempDir();
  const config = join(dir, "config");
  const cases: Array<[string, string]> = [
    ["adreport ''", "report keys config serve completion help"],
    ["adreport ke", "keys"],
    ["adreport keys ''", "add list remove use show test request"],
    ["adreport report --format ''", FORMATS],
    ["adreport keys request add-ip --format ''", "text json"],
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
    ["adreport help ''", "report keys config serve completion"],
  ];

  it.each(cases)("completes %s", async (line, expected) => {
    for (const profile of ["acme", "globex"])
      await runCli(["keys", "add", profile], { env: { ADREPORT_CONFIG_DIR: config }, input: "adr_k" });
    const script = join(dir, "adreport.bash");
    writeFileSync(script, (await runCli(["completion", "bash"])).stdout);
    const [command, args] = cliCommand([]);
    const probe = `
      source ${JSON.stringify(script)}
      adreport() { ${[command, ...args].map((a) => JSON.stringify(a)).join(" ")} "$@"; }
      COMP_WORDS=(${line}); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _adreport; echo "\${COMPREPLY[*]}"`;
    const result = spawnSync("bash", ["-c", probe], {
      encoding: "utf8",
      env: { ...process.env, ADREPORT_CONFIG_DIR: config },
    });
    expect(result.stderr).toBe("");
    expect(result.stdout.trim()).toBe(expected);
  });
});

describe("bash completion and file names", () => {
  // \`complete -o default\` makes bash offer file names whenever the function leaves no candidates, so the
  // function must turn that off (\`compopt +o default\`) wherever the value is not a file. Outside a real
  // completion bash refuses compopt, so the probe defines one that reports what it was asked.
  const dir = tempDir();
  const probe = async (line: string) => {
    const script = join(dir, "adreport.bash");
    writeFileSync(script, (await runCli(["completion", "bash"])).stdout);
    const result = spawnSync(
      "bash",
      [
        "-c",
        `source ${JSON.stringify(script)}
        compopt() { echo "compopt $*"; }
        COMP_WORDS=(${line}); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _adreport`,
      ],
      { encoding: "utf8", env: { ...process.env, ADREPORT_CONFIG_DIR: join(dir, "config") } },
    );
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
  ])("offers no file names for %s", async (line) => {
    expect(await probe(line)).toContain("compopt +o default");
  });

  it.each(["adreport report -o zz", "adreport serve load zz"])("keeps file names for %s", async (line) => {
    expect(await probe(line)).not.toContain("+o default");
  });
});

describe("zsh and fish completion", () => {
  it("zsh loads the bash completion through bashcompinit", async () => {
    const { stdout, code } = await runCli(["completion", "zsh"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^#compdef adreport\n/);
    expect(stdout).toContain("autoload -U +X bashcompinit && bashcompinit");
    expect(stdout).toContain("complete -o default -F _adreport adreport");
  });

  it("fish completes subcommands, flags and their values", async () => {
    const { stdout } = await runCli(["completion", "fish"]);
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
    const { stdout } = await runCli(["completion", "fish"]);
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

describe("the rest of the surface", () => {
  it("prints the version", async () => {
    expect((await runCli(["--version"])).stdout).toBe(`${version}\n`);
  });

  it("suggests the nearest command and flag", async () => {
    const command = await runCli(["reprot"]);
    expect(command.code).toBe(2);
    expect(command.stderr).toContain("adreport: unknown command 'reprot'\n(Did you mean report?)");
    const flag = await runCli(["report", "--form", "x"]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("(Did you mean --from?)");
  });

  it.each([
    [["help", "report"], "Usage: adreport report [options]"],
    [["help", "serve", "key", "issue"], "Usage: adreport serve key issue [options]"],
    [["help"], "Usage: adreport [options] [command]"],
  ])("`adreport %j` prints that command's help on stdout", async (args, usage) => {
    const result = await runCli(args);
    expect(result.code).toBe(0);
    expect(result.stdout.split("\n")[0]).toBe(usage);
  });

  it("`adreport help` of an unknown command: exit 2 and the commands there are", async () => {
    const result = await runCli(["help", "serve", "kee"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "adreport: unknown command 'adreport serve kee'\nhint: the commands of adreport serve are: start, init, load, demo, key, ip\n",
    );
  });

  it("`serve --help` shows the flags of the verb it runs by default", async () => {
    const help = await runCli(["serve", "--help"]);
    expect(help.stdout).toContain("Options of `serve start`, which runs when no command is named");
    for (const flag of ["--db <file>", "--port <n>", "--host <address>", "--faults <spec>"]) {
      expect(help.stdout).toContain(flag);
    }
  });

  it.each(["report", "keys", "config", "serve", "completion"])("shows examples in `%s --help`", async (name) => {
    const help = await runCli([name, "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Examples:|A session:/);
  });
});
