/**
 * The commander tree. Only commander and each command's flag definitions load at start-up; a command's
 * implementation (and its heavy libraries) is imported when that command runs.
 */
import { Command } from "commander";
import { registerConfig } from "../commands/config/command";
import type { Context } from "../commands/context";
import { registerKeys } from "../commands/keys/command";
import { registerReport } from "../commands/report/command";
import { registerServe } from "../commands/serve/command";
import { printableLines } from "../core/printable";
import { registerCompletion } from "./completion-command";

export function buildProgram(ctx: Context): Command {
  const program = new Command("adreport")
    .description("Pull advertising statistics from the reporting API and export them.")
    .version(ctx.version, "-V, --version", "print the version")
    .helpOption("-h, --help", "show help")
    .helpCommand(false)
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => ctx.io.out.write(text),
      writeErr: (text) => ctx.io.err.write(text),
      getOutHelpWidth: () => ctx.io.columns,
      getErrHelpWidth: () => ctx.io.columns,
      // Commander's messages quote what was typed, which a script may have taken from anywhere.
      outputError: (text, write) => write(`adreport: ${printableLines(text.replace(/^error: /, "").trimEnd())}\n`),
    })
    .addHelpText(
      "after",
      `
Examples:
  $ adreport report --from -7d --to today --dims campaign,date
  $ adreport serve demo --db demo.db && adreport serve --db demo.db
  $ adreport keys test

Exit codes: 0 done, 1 unexpected, 2 bad usage or input, 3 authentication (401),
4 forbidden (403), 5 network/server/rate limit after retries, or data changed, 130 interrupted.`,
    );
  registerReport(program, ctx);
  registerKeys(program, ctx);
  registerConfig(program, ctx);
  registerServe(program, ctx);
  registerCompletion(program, ctx);
  return program;
}
