/**
 * Completion, help and version in a real process, so the single-file binary proves them too: the bash
 * script it prints, run in bash against the real CLI (profile names come from a `keys list --format ndjson` that
 * bash runs), and the version baked into the build. Every other case runs in-process:
 * test/commands/completion.test.ts and test/commands/help.test.ts.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cliCommand, runCli } from "../helpers/spawn-cli";
import { tempDir } from "../helpers/temp";

const ROOT = join(import.meta.dirname, "..", "..");
const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };

describe("bash completion through the real CLI", { tags: ["binary"] }, () => {
  const dir = tempDir();
  const config = join(dir, "config");
  const script = join(dir, "adreport.bash");
  // Built once; no case changes the script or the profiles.
  beforeAll(async () => {
    for (const profile of ["acme", "globex"])
      await runCli(["keys", "add", profile], { env: { ADREPORT_CONFIG_DIR: config }, input: "adr_k" });
    writeFileSync(script, (await runCli(["completion", "bash"])).stdout);
  });

  it.each([
    ["adreport ''", "report keys config serve state status verify completion help"],
    ["adreport keys use ''", "acme globex"],
  ])("completes %s", (line, expected) => {
    const [command, args] = cliCommand([]);
    const probe = `
      source ${JSON.stringify(script)}
      adreport() { ${[command, ...args].map((a) => JSON.stringify(a)).join(" ")} "$@"; }
      COMP_WORDS=(${line}); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _adreport; echo "\${COMPREPLY[*]}"`;
    const result = spawnSync("bash", ["--norc", "--noprofile", "-c", probe], {
      encoding: "utf8",
      env: { ...process.env, ADREPORT_CONFIG_DIR: config },
    });
    expect(result.stderr).toBe("");
    expect(result.stdout.trim()).toBe(expected);
  });
});

describe("help and version", { tags: ["binary"] }, () => {
  // The version of a build comes from a constant the bundler writes in, not from package.json.
  it("prints the version", async () => {
    // The single binary carries the Node.js it was built with, which need not be the one running the tests.
    const runtime = `\\(Node\\.js v\\d+\\.\\d+\\.\\d+, ${process.platform}-${process.arch}\\)`;
    expect((await runCli(["--version"])).stdout).toMatch(
      new RegExp(`^adreport ${version.replaceAll(".", "\\.")} ${runtime}\n$`),
    );
  });

  it("prints help on stdout and suggests the nearest command", async () => {
    const help = await runCli(["help", "report"]);
    expect(help.code).toBe(0);
    expect(help.stdout.split("\n")[0]).toBe("Usage: adreport report [options]");
    const command = await runCli(["reprot"]);
    expect(command.code).toBe(2);
    expect(command.stderr).toContain("adreport: unknown command 'reprot'\n(Did you mean report?)");
  });

  it("prints a help topic from the build's own copy, loaded only when asked for", async () => {
    const topic = await runCli(["help", "cron"], { cwd: tempDir() });
    expect(topic).toMatchObject({ code: 0, stderr: "" });
    expect(topic.stdout).toBe(readFileSync(join(ROOT, "docs", "topics", "cron.md"), "utf8"));
    // What --version and --help load (the entry, the chunk with the program) carries the topics' names,
    // not their text.
    if (!process.env.ADREPORT_TEST_BIN) {
      const chunks = readdirSync(join(ROOT, "dist", "chunks")).map((name) => join(ROOT, "dist", "chunks", name));
      const files = [join(ROOT, "dist", "adreport.mjs"), ...chunks.filter((file) => file.endsWith(".mjs"))];
      const texts = files.map((file) => readFileSync(file, "utf8"));
      expect(texts[0]).not.toContain("# Scheduled exports (cron)");
      const withNames = texts.filter((text) => text.includes("Help topics (adreport help <topic>)"));
      expect(withNames.length).toBeGreaterThan(0);
      for (const text of withNames) expect(text).not.toContain("# Scheduled exports (cron)");
    }
  });
});
