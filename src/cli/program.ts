/**
 * The commander tree. Only commander and the flag definitions of the command named load at start-up
 * (command-list.ts); a command's implementation (and its heavy libraries) is imported when that command runs.
 */
import { Command, type CommandUnknownOpts, Help, Option } from "@commander-js/extra-typings";
import type { Context } from "../commands/context";
import { UsageError } from "../core/errors";
import { ExitCode, exitCodesInWords } from "../core/exit-codes";
import { tagLine } from "../core/log-codes";
import { printableLines } from "../core/printable";
import { quote } from "../core/quote";
import { nearestWords } from "../core/suggest";
import { registerCommands } from "./command-list";
import { HELP_TOPIC_NAMES, isHelpTopic, topicsHelpText } from "./help-topics";
import { suggestEveryLongName } from "./option-suggestions";
import { versionLine } from "./version";

const HELP_DESCRIPTION = "show help for this command";

/**
 * The program for a command line's words: commands they do not name are placeholders (command-list.ts).
 * Without words, every command in full (the generated documents, tests).
 */
export async function buildProgram(ctx: Context, words?: readonly string[]): Promise<Command> {
  suggestEveryLongName();
  const program = new Command("adreport")
    .description("Pull advertising statistics from the reporting API and export them.")
    .version(versionLine(ctx.version), "-V, --version", "print the version, and the Node.js and platform it runs on")
    .helpOption("-h, --help", HELP_DESCRIPTION)
    .helpCommand(false)
    // Read before commander runs (core/log-codes.ts, cli/run-figures.ts): every line is said in its format.
    .addOption(
      new Option("--log-format <format>", "stderr as text, or one JSON object a line (ADREPORT_LOG_FORMAT)").choices([
        "text",
        "json",
      ]),
    )
    .option(
      "--metrics-file <path>",
      "report: write the run's figures for node_exporter's textfile collector ({job}, {profile} in the name)",
    )
    // A value left unread would be text without a word, and a log shipper would get lines it cannot parse.
    .hook("preAction", (command, action) => {
      const asked = ctx.env.ADREPORT_LOG_FORMAT?.trim() ?? "";
      if (["", "text", "json"].includes(asked) || command.opts().logFormat !== undefined || action.name() === "help")
        return;
      throw new UsageError(`ADREPORT_LOG_FORMAT: ${quote(asked)} is not a log format; expected text or json`, {
        hint: "export ADREPORT_LOG_FORMAT=json",
      });
    })
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => ctx.io.out.write(text),
      writeErr: (text) => ctx.io.err.write(text),
      getOutHelpWidth: () => ctx.io.columns,
      getErrHelpWidth: () => ctx.io.columns,
      // Ours, not commander's own test, which makes the process's stream objects just to look at them.
      getOutHasColors: () => ctx.io.outColor,
      getErrHasColors: () => ctx.io.color,
      // Commander's messages quote what was typed, which a script may have taken from anywhere.
      outputError: (text, write) => {
        tagLine(ctx.io.err, { code: "error.usage", fields: { exit_code: ExitCode.usage } });
        write(`adreport: ${printableLines(text.replace(/^error: /, "").trimEnd())}\n`);
      },
    })
    // Made when help is shown, not at every start.
    .addHelpText(
      "after",
      () => `
Examples:
  $ adreport report --from -7d --to yesterday --dims campaign,date
  $ adreport serve demo --db demo.db && adreport serve --db demo.db
  $ adreport keys test

${filled(`Exit codes: ${exitCodesInWords()}.`, 100)}

${topicsHelpText()}`,
    );
  await registerCommands(program, ctx, words);
  registerHelp(program, ctx);
  describeHelpCommands(program);
  showDefaultVerbOptions(program);
  return program;
}

/** Text in lines of at most `width` characters, broken between words (commander's boxWrap costs a start 0.3 ms). */
function filled(text: string, width: number): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  return [...lines, line].join("\n");
}

/**
 * `adreport help [command...]`: the help of any command, `adreport help serve key issue` too (commander's
 * own help command takes one word), or a help topic: `adreport help formats`.
 */
function registerHelp(program: Command, ctx: Context): void {
  program
    .command("help")
    .description("show the help of a command or a topic: adreport help report, adreport help formats")
    .argument("[command-or-topic...]", "a command's words, or a topic")
    .action(async (words) => {
      const [first] = words;
      if (
        words.length === 1 &&
        first !== undefined &&
        isHelpTopic(first) &&
        !program.commands.some((c) => c.name() === first)
      ) {
        const { topicText } = await import("./topic-text");
        ctx.io.out.write(topicText(first));
        return;
      }
      let command: CommandUnknownOpts = program;
      for (const [i, word] of words.entries()) {
        const next = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
        if (!next) throw unknownHelpWord(command, words, i);
        command = next;
      }
      command.outputHelp();
    });
}

/**
 * The refusal of `help` for a word that is no command there (and, first, no topic): the one command or
 * topic near it as a line that runs, else what there is.
 */
function unknownHelpWord(command: CommandUnknownOpts, words: readonly string[], i: number): UsageError {
  const word = words[i] ?? "";
  const known = command.commands.map((c) => c.name()).filter((name) => name !== "help");
  const near = nearestWords(word, i === 0 ? [...known, ...HELP_TOPIC_NAMES] : known);
  const hint =
    near.length === 1
      ? `adreport help ${[...words.slice(0, i), near[0]].join(" ")}`
      : `the commands of ${["adreport", ...words.slice(0, i)].join(" ")} are: ${known.join(", ")}${i === 0 ? `; the topics are: ${HELP_TOPIC_NAMES.join(", ")}` : ""}`;
  // A first word may have meant a topic, which is no command of adreport: the word alone is quoted.
  const what =
    i === 0 ? `command or topic ${quote(word)}` : `command ${quote(["adreport", ...words.slice(0, i + 1)].join(" "))}`;
  return new UsageError(`unknown ${what}`, { hint });
}

/** Every command with subcommands has commander's `help [command]`: said in the same words as -h. */
function describeHelpCommands(command: CommandUnknownOpts): void {
  for (const child of command.commands) {
    if (child.commands.length === 0) continue;
    child.helpCommand("help [command]", "show help for one of these commands");
    describeHelpCommands(child);
  }
}

/**
 * A command with a default verb (`serve` runs `serve start`) lists that verb's flags in its own help, since
 * `adreport serve --db x --port 8080` takes them.
 */
function showDefaultVerbOptions(command: CommandUnknownOpts): void {
  for (const child of command.commands) showDefaultVerbOptions(child);
  const name = (command as CommandUnknownOpts & { _defaultCommandName?: string })._defaultCommandName;
  const verb = command.commands.find((c) => c.name() === name);
  if (!verb) return;
  command.configureHelp({
    formatHelp: (cmd, helper) => {
      const own = Help.prototype.formatHelp.call(helper, cmd, helper);
      const options = helper.visibleOptions(verb).filter((o) => o.long !== "--help");
      const width = Math.max(
        helper.padWidth(cmd, helper),
        ...options.map((o) => helper.displayWidth(helper.optionTerm(o))),
      );
      const items = options.map((o) =>
        helper.formatItem(
          helper.styleOptionTerm(helper.optionTerm(o)),
          width,
          helper.styleOptionDescription(helper.optionDescription(o)),
          helper,
        ),
      );
      const title = `Options of \`${cmd.name()} ${verb.name()}\`, which runs when no command is named (adreport ${cmd.name()} [options]):`;
      return `${own}\n${helper.styleTitle(title)}\n${items.join("\n")}\n`;
    },
  });
}
