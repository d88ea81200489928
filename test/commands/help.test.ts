/** The edges of the CLI in this process: the generated reference, suggestions, --help and --version. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { referenceMarkdown } from "../../src/cli/reference";
import { runInProcess } from "../helpers/run-cli";

const ROOT = join(import.meta.dirname, "..", "..");
const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };

describe("docs/cli.md", () => {
  it("is what the command definitions generate (run `npm run docs` after changing a command)", () => {
    expect(readFileSync(join(ROOT, "docs", "cli.md"), "utf8")).toBe(referenceMarkdown(version));
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
