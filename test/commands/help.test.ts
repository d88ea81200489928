/** The edges of the CLI in this process: the generated reference, suggestions, --help and --version. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HELP_TOPIC_NAMES } from "../../src/cli/help-topics";
import { manPage } from "../../src/cli/man-page";
import { documentedProgram, referenceMarkdown } from "../../src/cli/reference";
import { settingsTopic } from "../../src/cli/settings-topic";
import { KEYS } from "../../src/commands/config/flags";
import { SETTING_NAMES } from "../../src/config/settings";
import { runInProcess } from "../helpers/run-cli-in-process";

const ROOT = join(import.meta.dirname, "..", "..");
const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };

describe("docs/cli.md", () => {
  it("is what the command definitions generate (run `npm run docs` after changing a command)", async () => {
    expect(readFileSync(join(ROOT, "docs", "cli.md"), "utf8")).toBe(await referenceMarkdown(version));
  });

  it("man/adreport.1 too, and the npm package installs it", async () => {
    expect(readFileSync(join(ROOT, "man", "adreport.1"), "utf8")).toBe(
      manPage(await documentedProgram(version), version),
    );
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { files: string[]; man: string[] };
    expect(pkg.files).toContain("man/adreport.1");
    expect(pkg.man).toEqual(["./man/adreport.1"]);
  });

  it("docs/topics/settings.md is what the settings' declarations generate, every setting in it", () => {
    const text = readFileSync(join(ROOT, "docs", "topics", "settings.md"), "utf8");
    expect(text).toBe(settingsTopic());
    for (const name of SETTING_NAMES) expect(text).toContain(`| \`${name}\` |`);
  });

  it("every command's -h says the same, and no command keeps commander's stock wording", async () => {
    const reference = await referenceMarkdown(version);
    expect(reference).not.toContain("display help for command");
    expect(reference.match(/-h, --help +(.+)/g)?.every((line) => line.endsWith("show help for this command"))).toBe(
      true,
    );
  });

  it("`config get|set|unset` name every setting", () => {
    expect(KEYS.split(", ")).toEqual(SETTING_NAMES);
  });
});

describe("adreport help <topic>", () => {
  it.each(HELP_TOPIC_NAMES)("`help %s` prints docs/topics/%s.md", async (topic) => {
    const result = await runInProcess(["help", topic]);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toBe(readFileSync(join(ROOT, "docs", "topics", `${topic}.md`), "utf8"));
  });

  it("`--help` lists the topics; an unknown one is exit 2 naming them", async () => {
    const help = await runInProcess(["--help"]);
    expect(help.stdout).toContain("Help topics (adreport help <topic>):");
    for (const topic of HELP_TOPIC_NAMES) expect(help.stdout).toMatch(new RegExp(`^  ${topic} +\\S`, "m"));
    const unknown = await runInProcess(["help", "nonsense"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      `adreport: unknown command or topic "nonsense"\nhint: the commands of adreport are: report, keys, config, serve, state, verify, completion; the topics are: ${HELP_TOPIC_NAMES.join(", ")}\n`,
    );
  });

  // issue 35: `help format` said `unknown command or topic 'adreport format'` and listed everything.
  it.each([
    [["help", "format"], 'unknown command or topic "format"', "adreport help formats"],
    [["help", "reprot"], 'unknown command or topic "reprot"', "adreport help report"],
    [["help", "exit-code"], 'unknown command or topic "exit-code"', "adreport help exit-codes"],
  ])("`adreport %j` names the one near it as a line that runs", async (args, message, hint) => {
    const result = await runInProcess(args);
    expect(result).toMatchObject({ code: 2, stdout: "", stderr: `adreport: ${message}\nhint: ${hint}\n` });
    const suggested = await runInProcess(hint.split(" ").slice(1));
    expect(suggested.code).toBe(0);
  });

  it("the top-level example asks for the default end, yesterday", async () => {
    const help = await runInProcess(["--help"]);
    expect(help.stdout).toContain("adreport report --from -7d --to yesterday");
    expect(help.stdout).not.toContain("--to today");
  });
});

describe("the rest of the surface", () => {
  it("prints the version", async () => {
    const line = `adreport ${version} (Node.js ${process.version}, ${process.platform}-${process.arch})\n`;
    expect(await runInProcess(["--version"])).toMatchObject({ code: 0, stdout: line, stderr: "" });
  });

  it("suggests the nearest command and flag", async () => {
    const command = await runInProcess(["reprot"]);
    expect(command.code).toBe(2);
    expect(command.stderr).toContain("adreport: unknown command 'reprot'\n(Did you mean report?)");
    const flag = await runInProcess(["report", "--form", "x"]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("(Did you mean --from?)");
  });

  // issue 35: commander looks only at an option's last long name (--dimensions of `--dims, --dimensions`).
  it.each([
    [["report", "--dim", "campaign"], "--dim", "--dims"],
    // The value after `=` is never shown: it may be a key given to a mistyped --api-key.
    [["report", "--dim=campaign"], "--dim=***", "--dims"],
    [["report", "--dimension", "campaign"], "--dimension", "--dimensions"],
    [["report", "--spredsheet"], "--spredsheet", "--spreadsheet"],
  ])("`adreport %j` suggests every long name", async (args, typed, near) => {
    const result = await runInProcess(args);
    expect(result).toMatchObject({
      code: 2,
      stdout: "",
      stderr: `adreport: unknown option '${typed}'\n(Did you mean ${near}?)\n`,
    });
  });

  it("an unknown option's value is not shown: it may be a key given to a mistyped --api-key", async () => {
    const result = await runInProcess(["report", "--api-ky=adr_secretsecretsecret"]);
    expect(result).toMatchObject({ code: 2, stderr: "adreport: unknown option '--api-ky=***'\n" });
  });

  it("an unknown option with nothing near it gets no suggestion", async () => {
    const result = await runInProcess(["report", "--zzzzzzzz"]);
    expect(result).toMatchObject({ code: 2, stderr: "adreport: unknown option '--zzzzzzzz'\n" });
  });

  // issue 35: commander's own words were `option '-f, --format <format>' argument 'xlsx' is invalid. Allowed ...`
  it.each([
    [["report", "--format", "xlsx"], 'unknown format "xlsx"'],
    [["report", "-f", "jsno", "--dims", "campaign"], 'unknown format "jsno" (did you mean json?)'],
    [["report", "--format=CSV"], 'unknown format "CSV" (did you mean csv?)'],
  ])("`adreport %j` is our one line listing the formats", async (args, message) => {
    const result = await runInProcess(args);
    expect(result).toMatchObject({
      code: 2,
      stdout: "",
      stderr: `adreport: ${message}; the formats are table, csv, tsv, json, ndjson, html, chart\n`,
    });
  });

  it.each([
    [["help", "report"], "Usage: adreport report [options]"],
    [["help", "serve", "key", "issue"], "Usage: adreport serve key issue [options]"],
    [["help"], "Usage: adreport [options] [command]"],
  ])("`adreport %j` prints that command's help on stdout", async (args, usage) => {
    const result = await runInProcess(args);
    expect(result.code).toBe(0);
    expect(result.stdout.split("\n")[0]).toBe(usage);
  });

  it("`adreport help` of an unknown command: exit 2 and the commands there are", async () => {
    const result = await runInProcess(["help", "serve", "kee"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('adreport: unknown command "adreport serve kee"\nhint: adreport help serve key\n');
    const far = await runInProcess(["help", "serve", "nonsense"]);
    expect(far.stderr).toBe(
      'adreport: unknown command "adreport serve nonsense"\nhint: the commands of adreport serve are: start, init, upgrade, load, demo, restate, clock, openapi, replay, key, ip\n',
    );
  });

  it("`serve --help` shows the flags of the verb it runs by default", async () => {
    const help = await runInProcess(["serve", "--help"]);
    expect(help.stdout).toContain("Options of `serve start`, which runs when no command is named");
    for (const flag of ["--db <file|url>", "--port <n>", "--host <address>", "--faults <spec>"]) {
      expect(help.stdout).toContain(flag);
    }
  });

  it.each(["report", "keys", "config", "serve", "completion"])("shows examples in `%s --help`", async (name) => {
    const help = await runInProcess([name, "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Examples:|A session:/);
  });
});
