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
    const unknown = await runInProcess(["help", "formatz"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      `adreport: unknown command or topic 'adreport formatz'\nhint: the commands of adreport are: report, keys, config, serve, state, verify, completion; the topics are: ${HELP_TOPIC_NAMES.join(", ")}\n`,
    );
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
    expect(result.stderr).toBe(
      "adreport: unknown command 'adreport serve kee'\nhint: the commands of adreport serve are: start, init, load, demo, openapi, replay, key, ip\n",
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
